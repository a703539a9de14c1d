// Where a carrier is asked in live mode (its production host, its test host, the built-in simulator, or an
// address of one's own) and its own timeout. The choices and bounds come from the core's CarrierView.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { CarrierEndpoint } from '../../../../../core/desk/contract';
import { call } from '../../../api/client';
import { Button, TextField, useToast } from '../../../components';
import { formatInteger } from '../../../lib/format';
import { useLang, useT } from '../../../i18n';
import { Section, useExplain } from '../../settings/kit';
import { parseTimeout } from '../logic';
import type { SectionProps } from './types';

export function EndpointSection({ carrier, sandbox, onChange }: SectionProps): ReactNode {
  const t = useT('carriers');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const [error, setError] = useState<string | null>(null);
  const [timeout, setTimeoutText] = useState(carrier.timeout_ms > 0 ? String(carrier.timeout_ms) : '');
  const [timeoutError, setTimeoutError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'endpoint' | 'timeout' | null>(null);
  // The radio shows the choice at once; the core's answer confirms it (or puts the old one back).
  const [chosen, setChosen] = useState<CarrierEndpoint>(carrier.endpoint);
  useEffect(() => setChosen(carrier.endpoint), [carrier.endpoint]);

  const choices: Array<{ value: CarrierEndpoint; label: string; detail: string }> = [
    { value: 'production', label: t('endpoint.production'), detail: carrier.hosts.production },
    ...(carrier.hosts.test
      ? [{ value: 'test' as const, label: t('endpoint.test'), detail: carrier.hosts.test }]
      : []),
    { value: 'simulator', label: t('endpoint.simulator'), detail: t('endpoint.simulatorDetail') },
    { value: 'custom', label: t('endpoint.custom'), detail: t('endpoint.customDetail') },
  ];

  const update = async (
    input: { endpoint?: CarrierEndpoint; timeout_ms?: number },
    done: string,
  ): Promise<void> => {
    setBusy(input.endpoint !== undefined ? 'endpoint' : 'timeout');
    try {
      const next = await call((api) => api.carriers.update({ code: carrier.code, ...input }));
      onChange(next);
      toast(done);
    } catch (err) {
      setChosen(carrier.endpoint);
      setError(explain(err));
    } finally {
      setBusy(null);
    }
  };

  const saveTimeout = (e: FormEvent): void => {
    e.preventDefault();
    const parsed = parseTimeout(timeout);
    if (!parsed.ok) {
      setTimeoutError(t(`timeout.${parsed.problem}`));
      return;
    }
    setTimeoutError(null);
    void update({ timeout_ms: parsed.value }, t('timeout.saved', { name: carrier.name }));
  };

  return (
    <Section
      title={t('endpoint.title')}
      hint={sandbox ? t('endpoint.sandboxHint') : t('endpoint.hint')}
      data-testid={`carrier-endpoint-${carrier.code}`}
    >
      <fieldset className="endpoint-choices" disabled={busy === 'endpoint'}>
        <legend className="sr-only">{t('endpoint.title')}</legend>
        {choices.map((c) => (
          <label key={c.value} className="endpoint-choice">
            <input
              type="radio"
              name={`endpoint-${carrier.code}`}
              value={c.value}
              checked={chosen === c.value}
              onChange={() => {
                setChosen(c.value);
                void update(
                  { endpoint: c.value },
                  t('endpoint.saved', { name: carrier.name, choice: c.label }),
                );
              }}
              data-testid={`carrier-endpoint-${carrier.code}-${c.value}`}
            />
            <span>{c.label}</span>
            <span className="muted endpoint-detail">{c.detail}</span>
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <form onSubmit={saveTimeout} noValidate className="stack" style={{ gap: 8 }}>
        <TextField
          label={t('timeout.label')}
          error={timeoutError}
          hint={t('timeout.hint', { ms: formatInteger(carrier.default_timeout_ms, lang) })}
          inputMode="numeric"
          placeholder={t('timeout.placeholder')}
          value={timeout}
          onChange={(v) => {
            setTimeoutText(v);
            if (timeoutError) setTimeoutError(null);
          }}
          data-testid={`carrier-timeout-${carrier.code}`}
        />
        <div className="form-actions">
          <Button
            type="submit"
            variant="secondary"
            busy={busy === 'timeout'}
            data-testid={`carrier-timeout-save-${carrier.code}`}
          >
            {t('timeout.save')}
          </Button>
        </div>
      </form>
    </Section>
  );
}
