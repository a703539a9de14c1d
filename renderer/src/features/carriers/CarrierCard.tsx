// One carrier: header (name, live status, on/off) and a body of independent sections. Each section gets the
// carrier's view and a way to report a new one; it decides itself whether it applies (credentials only for
// carriers that have an account). Later sections (rate cards, richer health) are added to CARD_SECTIONS.
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import type { CarrierView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { Badge, Button, Dialog, Field, Input, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDateTime, formatSeconds } from '../../lib/format';
import { Section, Switch, useExplain } from '../settings/kit';
import {
  STATUS_TONE,
  baseUrlChoices,
  checkBaseUrl,
  checkCredentials,
  describeLastError,
  type CredentialsProblem,
} from './logic';

interface SectionProps {
  carrier: CarrierView;
  sandbox: boolean;
  onChange: (next: CarrierView) => void;
}

interface CardSection {
  key: string;
  applies: (c: CarrierView) => boolean;
  render: (props: SectionProps) => ReactNode;
}

const CARD_SECTIONS: readonly CardSection[] = [
  { key: 'health', applies: () => true, render: (p) => <HealthSection {...p} /> },
  { key: 'connection', applies: () => true, render: (p) => <ConnectionSection {...p} /> },
  {
    key: 'credentials',
    applies: (c) => c.credentials !== null,
    render: (p) => <CredentialsSection {...p} />,
  },
];

export function CarrierCard(props: SectionProps): ReactNode {
  const t = useT('carriers');
  const toast = useToast();
  const explain = useExplain();
  const { carrier, onChange } = props;
  const [busy, setBusy] = useState(false);

  const toggle = async (enabled: boolean): Promise<void> => {
    setBusy(true);
    try {
      const next = await call((api) => api.carriers.update({ code: carrier.code, enabled }));
      onChange(next);
      toast(t(enabled ? 'enabledToast' : 'disabledToast', { name: carrier.name }));
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      className="card"
      aria-labelledby={`carrier-${carrier.code}-title`}
      data-testid={`carrier-card-${carrier.code}`}
      data-enabled={carrier.enabled ? 'true' : 'false'}
    >
      <header className="card-head">
        <h2 className="card-title" id={`carrier-${carrier.code}-title`}>
          {carrier.name}
        </h2>
        <span className="card-sub">{carrier.code}</span>
        <StatusBadge carrier={carrier} />
        {!carrier.enabled ? <Badge tone="warn">{t('disabledBadge')}</Badge> : null}
        {carrier.credentials && !carrier.credentials.configured ? (
          <Badge tone="warn" data-testid={`carrier-needs-credentials-${carrier.code}`}>
            {t('needsCredentials')}
          </Badge>
        ) : null}
        <div className="card-head-end">
          <Switch
            checked={carrier.enabled}
            onChange={(v) => void toggle(v)}
            busy={busy}
            label={t('enabledLabel', { name: carrier.name })}
            onText={t('enabledOn')}
            offText={t('enabledOff')}
            data-testid={`carrier-enabled-${carrier.code}`}
          />
        </div>
      </header>
      <div className="card-body">
        {CARD_SECTIONS.filter((s) => s.applies(carrier)).map((s) => (
          <Fragment key={s.key}>{s.render(props)}</Fragment>
        ))}
      </div>
      {!carrier.enabled ? <div className="card-foot">{t('disabledNote')}</div> : null}
    </article>
  );
}

function StatusBadge({ carrier }: { carrier: CarrierView }): ReactNode {
  const t = useT('carriers');
  return (
    <Badge
      tone={STATUS_TONE[carrier.status]}
      title={t(`statusHint.${carrier.status}`)}
      data-testid={`carrier-card-status-${carrier.code}`}
    >
      <span data-status={carrier.status}>{t(`status.${carrier.status}`)}</span>
    </Badge>
  );
}

function HealthSection({ carrier }: SectionProps): ReactNode {
  const t = useT('carriers');
  const { lang } = useLang();
  const err = describeLastError(carrier.last_error);
  return (
    <Section title={t('health.title')} data-testid={`carrier-health-${carrier.code}`}>
      <dl className="kv">
        <dt>{t('health.status')}</dt>
        <dd>{t(`statusHint.${carrier.status}`)}</dd>
        <dt>{t('health.lastError')}</dt>
        <dd data-testid={`carrier-last-error-${carrier.code}`}>
          {err ? (
            <>
              <span className={carrier.status === 'available' ? undefined : 'error-text'}>
                {t(`lastError.${err.kind}`)}
              </span>
              {err.detail ? (
                <div className="field-hint">
                  {t('lastError.detail')}: <span className="mono">{err.detail}</span>
                </div>
              ) : null}
            </>
          ) : (
            <span className="muted">{t('health.noErrors')}</span>
          )}
        </dd>
        <dt>{t('health.latency')}</dt>
        <dd className="num" style={{ textAlign: 'left' }} data-testid={`carrier-latency-${carrier.code}`}>
          {carrier.median_latency_ms === null ? (
            <span className="muted">{t('health.noData')}</span>
          ) : (
            formatSeconds(carrier.median_latency_ms, lang)
          )}
        </dd>
        <dt>{t('health.lastSuccess')}</dt>
        <dd>
          {carrier.last_success_at ? (
            formatDateTime(carrier.last_success_at, lang)
          ) : (
            <span className="muted">{t('health.never')}</span>
          )}
        </dd>
      </dl>
    </Section>
  );
}

function ConnectionSection({ carrier, sandbox, onChange }: SectionProps): ReactNode {
  const t = useT('carriers');
  const toast = useToast();
  const explain = useExplain();
  const [draft, setDraft] = useState(carrier.base_url);
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
        <Field
          label={t('url.label')}
          error={error}
          hint={t('url.default', { url: carrier.default_base_url })}
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              type="url"
              inputMode="url"
              list={listId}
              value={draft}
              onChange={(e) => {
                setDraft(e.currentTarget.value);
                if (error) setError(null);
              }}
              data-testid={`carrier-base-url-${carrier.code}`}
            />
          )}
        </Field>
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

function CredentialsSection({ carrier, sandbox, onChange }: SectionProps): ReactNode {
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

  const dirty = clientId.trim() !== creds.client_id || secret.trim() !== '';

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
      setClientId(c?.client_id ?? '');
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
    if (clientId.trim() !== creds.client_id) input.client_id = clientId.trim();
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
        <Field label={t('cred.clientId')} error={problemText('client_id')}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={clientId}
              onChange={(e) => {
                setClientId(e.currentTarget.value);
                setProblems((p) => p.filter((x) => x.field !== 'client_id'));
              }}
              data-testid={`carrier-client-id-${carrier.code}`}
            />
          )}
        </Field>
        {replacing ? (
          <Field
            label={hasSecret ? t('cred.newSecret') : t('cred.secret')}
            error={problemText('client_secret')}
            hint={t('cred.secretHint')}
          >
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                invalid={invalid}
                type="password"
                autoComplete="new-password"
                value={secret}
                onChange={(e) => {
                  setSecret(e.currentTarget.value);
                  setProblems((p) => p.filter((x) => x.field !== 'client_secret'));
                }}
                data-testid={`carrier-secret-${carrier.code}`}
              />
            )}
          </Field>
        ) : (
          <div className="field">
            <span className="field-label">{t('cred.secret')}</span>
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
          {creds.client_id !== '' || hasSecret ? (
            <Button
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
                  { client_id: '', client_secret: '' },
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
