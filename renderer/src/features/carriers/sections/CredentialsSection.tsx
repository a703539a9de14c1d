// The carrier's account (CDEK's client id and secret): the secret is typed, saved, then only ever shown
// masked; replacing or clearing it is explicit.
import { useState, type FormEvent, type ReactNode } from 'react';
import { call } from '../../../api/client';
import { Button, Dialog, TextField, useToast } from '../../../components';
import { useT } from '../../../i18n';
import { Section, useExplain } from '../../settings/kit';
import { checkCredentials, type CredentialsProblem } from '../logic';
import type { SectionProps } from './types';

/** The carrier's own field names with a label of their own; CDEK's client_id/client_secret use the generic ones. */
const FIELD_LABELS = {
  client_number: 'cred.field.client_number',
  client_key: 'cred.field.client_key',
  login: 'cred.field.login',
  api_key: 'cred.field.api_key',
  token: 'cred.field.token',
  appkey: 'cred.field.appkey',
  apikey: 'cred.field.apikey',
} as const;
const labelKey = (field: string | null): (typeof FIELD_LABELS)[keyof typeof FIELD_LABELS] | null =>
  field !== null && field in FIELD_LABELS ? FIELD_LABELS[field as keyof typeof FIELD_LABELS] : null;

export function CredentialsSection({ carrier, sandbox, onChange }: SectionProps): ReactNode {
  const t = useT('carriers');
  const toast = useToast();
  const explain = useExplain();
  const creds = carrier.credentials!;
  const hasSecret = creds.client_secret_masked !== '';
  const [clientId, setClientId] = useState(creds.client_id);
  const [secret, setSecret] = useState('');
  const [replacing, setReplacing] = useState(!hasSecret);
  const [problems, setProblems] = useState<CredentialsProblem[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmClear, setConfirmClear] = useState(false);

  const problemText = (field: CredentialsProblem['field']): string | null => {
    const p = problems.find((x) => x.field === field);
    return p ? t(`cred.${field}.${p.problem}`) : null;
  };

  const hasId = creds.client_id !== null;
  const idKey = labelKey(creds.id_field);
  const secretKey = labelKey(creds.secret_field);
  const idLabel = idKey ? t(idKey) : t('cred.clientId');
  const secretLabel = secretKey ? t(secretKey) : t('cred.secret');
  const newSecretLabel = secretKey ? t('cred.newValue', { field: t(secretKey) }) : t('cred.newSecret');
  const dirty = (clientId ?? '').trim() !== (creds.client_id ?? '') || secret.trim() !== '';

  const apply = async (
    input: { client_id?: string; client_secret?: string },
    done: string,
  ): Promise<boolean> => {
    setBusy(true);
    setFormError(null);
    try {
      const next = await call((api) => api.carriers.update({ code: carrier.code, ...input }));
      onChange(next);
      const c = next.credentials;
      setClientId(c ? c.client_id : null);
      setSecret('');
      setReplacing(!c || c.client_secret_masked === '');
      toast(done);
      return true;
    } catch (err) {
      setFormError(explain(err));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const found = checkCredentials({ clientId, newSecret: replacing ? secret : '', hasSecret });
    setProblems(found);
    if (found.length > 0) return;
    const input: { client_id?: string; client_secret?: string } = {};
    if (clientId !== null && clientId.trim() !== creds.client_id) input.client_id = clientId.trim();
    if (replacing && secret.trim() !== '') input.client_secret = secret.trim();
    if (Object.keys(input).length === 0) return;
    void apply(input, t('cred.saved', { name: carrier.name }));
  };

  return (
    <Section
      title={t('cred.title')}
      hint={
        sandbox ? t('cred.sandboxHint') : creds.configured ? t('cred.hintConfigured') : t('cred.hintMissing')
      }
      data-testid={`carrier-credentials-${carrier.code}`}
    >
      <form onSubmit={onSubmit} noValidate className="stack" style={{ gap: 8 }}>
        {clientId !== null ? (
          <TextField
            label={idLabel}
            error={problemText('client_id')}
            value={clientId}
            onChange={(v) => {
              setClientId(v);
              setProblems((p) => p.filter((x) => x.field !== 'client_id'));
            }}
            data-testid={`carrier-client-id-${carrier.code}`}
          />
        ) : null}
        {replacing ? (
          <TextField
            label={hasSecret ? newSecretLabel : secretLabel}
            error={problemText('client_secret')}
            hint={t('cred.secretHint')}
            type="password"
            autoComplete="new-password"
            value={secret}
            onChange={(v) => {
              setSecret(v);
              setProblems((p) => p.filter((x) => x.field !== 'client_secret'));
            }}
            data-testid={`carrier-secret-${carrier.code}`}
          />
        ) : (
          <div className="field">
            <span className="field-label">{secretLabel}</span>
            <div className="secret-line">
              <span
                className="mono"
                data-testid={`carrier-secret-masked-${carrier.code}`}
                aria-label={t('cred.maskedLabel')}
              >
                {creds.client_secret_masked}
              </span>
              <Button
                size="sm"
                onClick={() => setReplacing(true)}
                data-testid={`carrier-secret-replace-${carrier.code}`}
              >
                {t('cred.replace')}
              </Button>
            </div>
            <div className="field-hint">{t('cred.neverShown')}</div>
          </div>
        )}
        {formError ? (
          <div className="form-error" role="alert">
            {formError}
          </div>
        ) : null}
        <div className="form-actions">
          <Button
            needsServer
            type="submit"
            variant={dirty ? 'primary' : 'secondary'}
            busy={busy}
            disabled={!dirty}
            data-testid={`carrier-credentials-save-${carrier.code}`}
          >
            {t('cred.save')}
          </Button>
          {replacing && hasSecret ? (
            <Button
              variant="ghost"
              onClick={() => {
                setReplacing(false);
                setSecret('');
                setProblems([]);
              }}
            >
              {t('cred.keepSecret')}
            </Button>
          ) : null}
          {(creds.client_id ?? '') !== '' || hasSecret ? (
            <Button
              needsServer
              variant="ghost"
              onClick={() => setConfirmClear(true)}
              data-testid={`carrier-credentials-clear-${carrier.code}`}
            >
              {t('cred.clear')}
            </Button>
          ) : null}
        </div>
      </form>
      <Dialog
        open={confirmClear}
        title={t('cred.clearTitle', { name: carrier.name })}
        onClose={() => setConfirmClear(false)}
        initialFocus="[data-autofocus]"
        footer={
          <>
            <Button onClick={() => setConfirmClear(false)} data-autofocus="">
              {t('common.cancel')}
            </Button>
            <Button
              variant="danger"
              busy={busy}
              onClick={() =>
                void apply(
                  hasId ? { client_id: '', client_secret: '' } : { client_secret: '' },
                  t('cred.cleared', { name: carrier.name }),
                ).then((ok) => {
                  if (ok) setConfirmClear(false);
                })
              }
            >
              {t('cred.clearConfirm')}
            </Button>
          </>
        }
      >
        <p>{t('cred.clearBody', { name: carrier.name })}</p>
      </Dialog>
    </Section>
  );
}
