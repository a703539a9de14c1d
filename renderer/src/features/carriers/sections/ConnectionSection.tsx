// The carrier's API address (used in live mode): validated in the form, with the known addresses offered
// and a way back to the default.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { call } from '../../../api/client';
import { Button, TextField, useToast } from '../../../components';
import { useT } from '../../../i18n';
import { Section, useExplain } from '../../settings/kit';
import { baseUrlChoices, checkBaseUrl } from '../logic';
import type { SectionProps } from './types';

export function ConnectionSection({ carrier, sandbox, onChange }: SectionProps): ReactNode {
  const t = useT('carriers');
  const toast = useToast();
  const explain = useExplain();
  const [draft, setDraft] = useState(carrier.base_url);
  // The endpoint choice above changes the host this field shows.
  useEffect(() => setDraft(carrier.base_url), [carrier.base_url]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isDefault = carrier.base_url === carrier.default_base_url;
  const dirty = draft.trim() !== carrier.base_url;
  const listId = `carrier-${carrier.code}-urls`;

  const save = async (value: string): Promise<void> => {
    const problem = checkBaseUrl(value);
    if (problem) {
      setError(t(`url.${problem}`));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const next = await call((api) => api.carriers.update({ code: carrier.code, base_url: value.trim() }));
      onChange(next);
      setDraft(next.base_url);
      toast(t('url.saved', { name: carrier.name }));
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const reset = async (): Promise<void> => {
    setDraft(carrier.default_base_url);
    await save(carrier.default_base_url);
  };

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    void save(draft);
  };

  return (
    <Section
      title={t('url.title')}
      hint={sandbox ? t('url.sandboxHint') : t('url.hint')}
      data-testid={`carrier-connection-${carrier.code}`}
    >
      <form onSubmit={onSubmit} noValidate className="stack" style={{ gap: 8 }}>
        <TextField
          label={t('url.label')}
          error={error}
          hint={t('url.default', { url: carrier.default_base_url })}
          type="url"
          inputMode="url"
          list={listId}
          value={draft}
          onChange={(v) => {
            setDraft(v);
            if (error) setError(null);
          }}
          data-testid={`carrier-base-url-${carrier.code}`}
        />
        <datalist id={listId}>
          {baseUrlChoices(carrier).map((u) => (
            <option key={u} value={u} />
          ))}
        </datalist>
        <div className="form-actions">
          <Button
            type="submit"
            variant={dirty ? 'primary' : 'secondary'}
            busy={busy}
            disabled={!dirty}
            data-testid={`carrier-base-url-save-${carrier.code}`}
          >
            {t('url.save')}
          </Button>
          <Button
            variant="ghost"
            onClick={() => void reset()}
            disabled={isDefault && !dirty}
            data-testid={`carrier-base-url-reset-${carrier.code}`}
            title={carrier.default_base_url}
          >
            {t('url.reset')}
          </Button>
          {isDefault ? <span className="form-status">{t('url.isDefault')}</span> : null}
        </div>
      </form>
    </Section>
  );
}
