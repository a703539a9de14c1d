// Where a carrier is asked in live mode, as ONE control (#17 item 9): its production host, its test host, the
// built-in simulator, or an address of one's own, typed right under that choice. The choices and bounds come
// from the core's CarrierView; what a typed address means (a published host is that choice) is logic.ts.
// The carrier's own timeout lives here too: it is about the same calls.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { CarrierEndpoint } from '../../../../../core/desk/contract';
import { call } from '../../../api/client';
import { Button, TextField, useToast } from '../../../components';
import { formatInteger } from '../../../lib/format';
import { useLang, useT } from '../../../i18n';
import { Section, useExplain } from '../../settings/kit';
import { addressChoice, checkBaseUrl, parseTimeout } from '../logic';
import type { SectionProps } from './types';
import './endpoint.css';

type Update = { endpoint?: CarrierEndpoint; base_url?: string; timeout_ms?: number };

export function EndpointSection({ carrier, sandbox, onChange }: SectionProps): ReactNode {
  const t = useT('carriers');
  const toast = useToast();
  const explain = useExplain();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'endpoint' | 'timeout' | null>(null);
  // The radio shows the choice at once; the core's answer confirms it (or puts the old one back). «Свой
  // адрес» is only chosen here until its address is saved: nothing changes in the core before that.
  const [chosen, setChosen] = useState<CarrierEndpoint>(carrier.endpoint);
  useEffect(() => setChosen(carrier.endpoint), [carrier.endpoint]);

  const label = (e: CarrierEndpoint): string => t(`endpoint.${e}`);
  const choices: Array<{ value: CarrierEndpoint; detail: string }> = [
    { value: 'production', detail: carrier.hosts.production },
    ...(carrier.hosts.test ? [{ value: 'test' as const, detail: carrier.hosts.test }] : []),
    { value: 'simulator', detail: t('endpoint.simulatorDetail') },
    {
      value: 'custom',
      // Once chosen, the field below says it: the line would only repeat it.
      detail:
        carrier.endpoint === 'custom' ? carrier.base_url : chosen === 'custom' ? '' : t('address.detail'),
    },
  ];

  const update = async (input: Update, done: (name: string) => string): Promise<boolean> => {
    setBusy(input.timeout_ms !== undefined ? 'timeout' : 'endpoint');
    setError(null);
    try {
      const next = await call((api) => api.carriers.update({ code: carrier.code, ...input }));
      onChange(next);
      // A typed address may turn out to be a published host: the control shows what the core stored.
      if (input.timeout_ms === undefined) setChosen(next.endpoint);
      // The card's name is already in the UI language (CarriersScreen); the core's answer says it in Russian.
      toast(done(carrier.name));
      return true;
    } catch (err) {
      setChosen(carrier.endpoint);
      setError(explain(err));
      return false;
    } finally {
      setBusy(null);
    }
  };

  const choose = (value: CarrierEndpoint): void => {
    setChosen(value);
    setError(null);
    if (value === 'custom' || value === carrier.endpoint) return;
    void update({ endpoint: value }, (name) => t('endpoint.saved', { name, choice: label(value) }));
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
              onChange={() => choose(c.value)}
              data-testid={`carrier-endpoint-${carrier.code}-${c.value}`}
            />
            <span>{label(c.value)}</span>
            <span className="muted endpoint-detail">{c.detail}</span>
          </label>
        ))}
      </fieldset>
      {chosen === 'custom' ? (
        <CustomAddress
          key={carrier.endpoint === 'custom' ? carrier.base_url : ''}
          carrier={carrier}
          busy={busy === 'endpoint'}
          onCancel={carrier.endpoint === 'custom' ? null : () => setChosen(carrier.endpoint)}
          onSave={(choice) =>
            update(choice, (name) =>
              choice.endpoint === 'custom'
                ? t('address.saved', { name })
                : t('address.savedAsPublished', { name, choice: label(choice.endpoint) }),
            )
          }
        />
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <TimeoutForm
        carrier={carrier}
        busy={busy === 'timeout'}
        onSave={(ms) => void update({ timeout_ms: ms }, (name) => t('timeout.saved', { name }))}
      />
    </Section>
  );
}

/** The address of «Свой адрес»: checked in the form; the carrier's own hosts typed by hand become that choice. */
function CustomAddress(props: {
  carrier: SectionProps['carrier'];
  busy: boolean;
  /** Null when the custom address is what is stored: there is nothing to go back to. */
  onCancel: (() => void) | null;
  onSave: (choice: ReturnType<typeof addressChoice>) => Promise<boolean>;
}): ReactNode {
  const t = useT('carriers');
  const { carrier } = props;
  const stored = carrier.endpoint === 'custom' ? carrier.base_url : '';
  const [draft, setDraft] = useState(stored);
  const [error, setError] = useState<string | null>(null);
  const dirty = draft.trim() !== stored;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const problem = checkBaseUrl(draft);
    if (problem) {
      setError(t(`address.${problem}`));
      return;
    }
    setError(null);
    void props.onSave(addressChoice(carrier, draft));
  };

  return (
    <form onSubmit={onSubmit} noValidate className="endpoint-address stack">
      <TextField
        label={t('address.label')}
        error={error}
        hint={t('address.hint')}
        type="url"
        inputMode="url"
        placeholder="https://"
        value={draft}
        onChange={(v) => {
          setDraft(v);
          if (error) setError(null);
        }}
        data-testid={`carrier-base-url-${carrier.code}`}
      />
      <div className="form-actions">
        <Button
          needsServer
          type="submit"
          variant={dirty ? 'primary' : 'secondary'}
          busy={props.busy}
          disabled={!dirty}
          data-testid={`carrier-base-url-save-${carrier.code}`}
        >
          {t('address.save')}
        </Button>
        {props.onCancel ? (
          <Button
            variant="ghost"
            onClick={props.onCancel}
            data-testid={`carrier-base-url-cancel-${carrier.code}`}
          >
            {t('address.cancel')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function TimeoutForm(props: {
  carrier: SectionProps['carrier'];
  busy: boolean;
  onSave: (ms: number) => void;
}): ReactNode {
  const t = useT('carriers');
  const { lang } = useLang();
  const { carrier } = props;
  const [timeout, setTimeoutText] = useState(carrier.timeout_ms > 0 ? String(carrier.timeout_ms) : '');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const parsed = parseTimeout(timeout);
    if (!parsed.ok) {
      setError(t(`timeout.${parsed.problem}`));
      return;
    }
    setError(null);
    props.onSave(parsed.value);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="stack" style={{ gap: 8 }}>
      <TextField
        label={t('timeout.label')}
        error={error}
        hint={t('timeout.hint', { ms: formatInteger(carrier.default_timeout_ms, lang) })}
        inputMode="numeric"
        placeholder={t('timeout.placeholder')}
        value={timeout}
        onChange={(v) => {
          setTimeoutText(v);
          if (error) setError(null);
        }}
        data-testid={`carrier-timeout-${carrier.code}`}
      />
      <div className="form-actions">
        <Button
          needsServer
          type="submit"
          variant="secondary"
          busy={props.busy}
          data-testid={`carrier-timeout-save-${carrier.code}`}
        >
          {t('timeout.save')}
        </Button>
      </div>
    </form>
  );
}
