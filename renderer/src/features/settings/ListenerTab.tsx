// Settings → Listener: the local /v1 HTTP API — on/off, port and address, the URL to give local tools and
// copyable test commands for bash, PowerShell and cmd that read the key from the RATEDESK_API_KEY variable
// (never a real key on screen).
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { ListenerStatus } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { useApp } from '../../app/context';
import { hrefFor } from '../../app/router';
import { Badge, Button, ErrorState, Field, LoadingState, TextField, useToast } from '../../components';
import { useT } from '../../i18n';
import { CopyBlock, Labeled, RadioGroup, Section, Switch, useExplain } from './kit';
import { LOOPBACK_HOSTS, parsePort } from './logic';
import { defaultShell, SHELLS, shellExamples, type Shell } from './shell-commands';

export function ListenerTab(): ReactNode {
  const t = useT('settings');
  const toast = useToast();
  const explain = useExplain();
  const { refreshInfo } = useApp();
  const { state, reload, setData } = useDeskQuery((api) => api.listener.status(), []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const update = async (
    input: { enabled?: boolean; port?: number; host?: string },
    done: string,
  ): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const next = await call((api) => api.listener.update(input));
      setData(() => next);
      toast(done);
      void refreshInfo();
      return true;
    } catch (err) {
      setError(explain(err));
      // The core put the old settings back; show what is true now.
      void reload();
      return false;
    } finally {
      setBusy(false);
    }
  };

  const status = state.data;
  if (status === undefined) {
    return state.status === 'error' ? (
      <ErrorState error={state.error} title={t('listener.loadError')} onRetry={() => void reload()} />
    ) : (
      <LoadingState />
    );
  }

  return (
    <div className="stack" data-testid="listener-tab">
      <p className="screen-lead">{t('listener.lead')}</p>
      <div className="panel settings-panel">
        <Section
          title={t('listener.title')}
          actions={
            <Switch
              checked={status.enabled}
              busy={busy}
              label={t('listener.switch')}
              onChange={(on) =>
                void update({ enabled: on }, on ? t('listener.turnedOn') : t('listener.turnedOff'))
              }
              data-testid="listener-enabled"
            />
          }
        >
          <StatusLine status={status} />
          {error ? (
            <div className="form-error" role="alert" data-testid="listener-error">
              {error}
            </div>
          ) : null}
          {status.url ? (
            <Labeled label={t('listener.urlLabel')} hint={t('listener.urlHint')}>
              <CopyBlock
                text={status.url}
                label={t('listener.urlLabel')}
                copiedText={t('listener.urlCopied')}
                data-testid="listener-url"
              />
            </Labeled>
          ) : null}
        </Section>
      </div>
      <div className="panel settings-panel">
        <AddressForm status={status} busy={busy} onApply={(input) => update(input, t('listener.applied'))} />
      </div>
      {status.url ? (
        <div className="panel settings-panel">
          <Section title={t('listener.examples')} hint={t('listener.examplesHint')}>
            <CurlExamples url={status.url} />
          </Section>
        </div>
      ) : null}
    </div>
  );
}

function StatusLine({ status }: { status: ListenerStatus }): ReactNode {
  const t = useT('settings');
  if (status.running) {
    return (
      <div className="form-actions" data-testid="listener-state" data-running="true">
        <Badge tone="ok">{t('listener.running')}</Badge>
        <span className="muted">{t('listener.runningHint')}</span>
      </div>
    );
  }
  return (
    <div className="form-actions" data-testid="listener-state" data-running="false">
      <Badge tone={status.enabled ? 'danger' : 'neutral'}>
        {status.enabled ? t('listener.notRunning') : t('listener.off')}
      </Badge>
      <span className="muted">{status.enabled ? t('listener.notRunningHint') : t('listener.offHint')}</span>
    </div>
  );
}

function AddressForm(props: {
  status: ListenerStatus;
  busy: boolean;
  onApply: (input: { port?: number; host?: string }) => Promise<boolean>;
}): ReactNode {
  const t = useT('settings');
  const { status } = props;
  const [port, setPort] = useState(String(status.port));
  const [host, setHost] = useState(status.host);
  const [portError, setPortError] = useState<string | null>(null);

  useEffect(() => {
    setPort(String(status.port));
    setHost(status.host);
  }, [status.port, status.host]);

  const dirty = port.trim() !== String(status.port) || host !== status.host;

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const p = parsePort(port);
    if (!p.ok) {
      setPortError(t('listener.portInvalid'));
      return;
    }
    setPortError(null);
    const input: { port?: number; host?: string } = {};
    if (p.value !== status.port) input.port = p.value;
    if (host !== status.host) input.host = host;
    if (Object.keys(input).length > 0) void props.onApply(input);
  };

  const hosts: string[] = (LOOPBACK_HOSTS as readonly string[]).includes(status.host)
    ? [...LOOPBACK_HOSTS]
    : [status.host, ...LOOPBACK_HOSTS];

  return (
    <Section title={t('listener.address')} hint={t('listener.addressHint')}>
      <form className="form-row form-row-top" onSubmit={submit} noValidate>
        <Field label={t('listener.host')} className="field-narrow">
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={host}
              onChange={(e) => setHost(e.currentTarget.value)}
              data-testid="listener-host"
            >
              {hosts.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label={t('listener.port')}
          error={portError}
          hint={t('listener.portHint')}
          fieldClassName="field-narrow"
          inputMode="numeric"
          className="num"
          value={port}
          onChange={(v) => {
            setPort(v);
            setPortError(null);
          }}
          data-testid="listener-port"
        />
        <Button
          type="submit"
          variant={dirty ? 'primary' : 'secondary'}
          disabled={!dirty}
          busy={props.busy}
          data-testid="listener-apply"
        >
          {t('listener.apply')}
        </Button>
      </form>
    </Section>
  );
}

const SHELL_NAMES: Record<Shell, string> = { bash: 'bash', powershell: 'PowerShell', cmd: 'cmd' };

/** The same two requests in the shell the admin has: each shell quotes differently (shell-commands.ts). */
function CurlExamples({ url }: { url: string }): ReactNode {
  const t = useT('settings');
  const [shell, setShell] = useState<Shell>(() => defaultShell(navigator.platform));
  const ex = shellExamples(url, shell);
  return (
    <div className="stack">
      <RadioGroup
        name="listener-shell"
        legend={t('listener.shell')}
        value={shell}
        options={SHELLS.map((s) => ({
          value: s,
          label: SHELL_NAMES[s],
          title: t(`listener.shellHint.${s}`),
        }))}
        onChange={setShell}
        data-testid="listener-shell"
      />
      <Labeled label={t('listener.exampleBalance')}>
        <CopyBlock
          text={ex.balance}
          label={`${t('listener.exampleBalance')} (${SHELL_NAMES[shell]})`}
          copiedText={t('listener.commandCopied', { shell: SHELL_NAMES[shell] })}
          multiline
          data-testid="listener-curl"
        />
      </Labeled>
      <Labeled label={t('listener.exampleRates')}>
        <CopyBlock
          text={ex.rates}
          label={`${t('listener.exampleRates')} (${SHELL_NAMES[shell]})`}
          copiedText={t('listener.commandCopied', { shell: SHELL_NAMES[shell] })}
          multiline
          data-testid="listener-curl-rates"
        />
      </Labeled>
      <p className="field-hint" style={{ margin: 0 }} data-testid="listener-key-hint">
        {t('listener.keyHintShell')} <code className="mono">{ex.setKey}</code> {t('listener.keyHintWhere')}{' '}
        <a href={hrefFor('settings', 'keys')}>{t('listener.keyLink')}</a>
      </p>
    </div>
  );
}
