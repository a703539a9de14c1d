// Settings → «Пользователи» (#20, an administrator on a company server): people with their role and state,
// a new person, a one-time enrolment code shown once with a copy button, disabling and enabling; the
// enrolled devices with revocation (confirmed, effective on the device's next call).
import { useState, type FormEvent, type ReactNode } from 'react';
import type { DeviceView, EnrolmentCode, UserView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import {
  Badge,
  Banner,
  Button,
  Dialog,
  EmptyState,
  ErrorState,
  Field,
  LoadingState,
  Table,
  TextField,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { CopyBlock, Section, useExplain } from './kit';
import './company.css';

export function CompanyUsersTab(): ReactNode {
  const t = useT('company');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const users = useDeskQuery((api) => api.users.list(), []);
  const devices = useDeskQuery((api) => api.devices.list(), []);
  const [code, setCode] = useState<EnrolmentCode | null>(null);
  const [revoking, setRevoking] = useState<DeviceView | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const act = async (key: string, run: () => Promise<unknown>, done: string): Promise<void> => {
    setBusy(key);
    try {
      await run();
      toast(done);
      await Promise.all([users.reload(), devices.reload()]);
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(null);
    }
  };

  const enrol = async (name: string): Promise<void> => {
    setBusy(`enrol:${name}`);
    try {
      setCode(await call((api) => api.users.enrol({ name })));
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(null);
    }
  };

  const userColumns: Column<UserView>[] = [
    { key: 'name', header: t('users.col.name'), render: (u) => <strong>{u.name}</strong> },
    { key: 'role', header: t('users.col.role'), render: (u) => t(`role.${u.role}`) },
    {
      key: 'state',
      header: t('users.col.state'),
      render: (u) =>
        u.disabled ? (
          <Badge tone="danger">{t('users.disabled')}</Badge>
        ) : (
          <Badge tone="ok">{t('users.active')}</Badge>
        ),
    },
    { key: 'devices', header: t('users.col.devices'), align: 'right', render: (u) => u.devices },
    { key: 'created', header: t('users.col.created'), render: (u) => formatDateTime(u.created_at, lang) },
    {
      key: 'actions',
      header: <span className="sr-only">{t('users.col.actions')}</span>,
      render: (u) => (
        <span className="form-actions">
          <Button
            size="sm"
            needsServer
            disabled={u.disabled}
            busy={busy === `enrol:${u.name}`}
            onClick={() => void enrol(u.name)}
            data-testid={`user-enrol-${u.name}`}
          >
            {t('users.enrol')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            needsServer
            busy={busy === `state:${u.name}`}
            onClick={() =>
              void act(
                `state:${u.name}`,
                () =>
                  call((api) =>
                    u.disabled ? api.users.enable({ name: u.name }) : api.users.disable({ name: u.name }),
                  ),
                t(u.disabled ? 'users.enabled' : 'users.disabledDone', { name: u.name }),
              )
            }
            data-testid={`user-toggle-${u.name}`}
          >
            {u.disabled ? t('users.enable') : t('users.disable')}
          </Button>
        </span>
      ),
    },
  ];

  const deviceColumns: Column<DeviceView>[] = [
    { key: 'name', header: t('devices.col.name'), render: (d) => d.name },
    { key: 'user', header: t('devices.col.user'), render: (d) => d.user },
    { key: 'created', header: t('devices.col.created'), render: (d) => formatDateTime(d.created_at, lang) },
    {
      key: 'seen',
      header: t('devices.col.lastSeen'),
      render: (d) =>
        d.last_seen_at ? (
          formatDateTime(d.last_seen_at, lang)
        ) : (
          <span className="muted">{t('devices.never')}</span>
        ),
    },
    {
      key: 'state',
      header: t('devices.col.state'),
      render: (d) =>
        d.revoked_at ? (
          <Badge tone="neutral">{t('devices.revoked')}</Badge>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            needsServer
            onClick={() => setRevoking(d)}
            data-testid={`device-revoke-${d.id}`}
          >
            {t('devices.revoke')}
          </Button>
        ),
    },
  ];

  return (
    <div className="stack" data-testid="users-tab">
      <p className="screen-lead">{t('users.lead')}</p>
      <div className="panel settings-panel">
        <AddUser onAdded={(name) => void users.reload().then(() => enrol(name))} />
      </div>
      <Section title={t('users.title')}>
        {users.state.data === undefined ? (
          users.state.status === 'error' ? (
            <ErrorState error={users.state.error} onRetry={() => void users.reload()} />
          ) : (
            <LoadingState />
          )
        ) : users.state.data.length === 0 ? (
          <EmptyState title={t('users.empty')} />
        ) : (
          <div className="panel">
            <Table
              columns={userColumns}
              rows={users.state.data}
              rowKey={(u) => String(u.id)}
              caption={t('users.title')}
              data-testid="users-table"
            />
          </div>
        )}
      </Section>
      <Section title={t('devices.title')} hint={t('devices.hint')}>
        {devices.state.data === undefined ? (
          devices.state.status === 'error' ? (
            <ErrorState error={devices.state.error} onRetry={() => void devices.reload()} />
          ) : (
            <LoadingState />
          )
        ) : devices.state.data.length === 0 ? (
          <EmptyState title={t('devices.empty')} />
        ) : (
          <div className="panel">
            <Table
              columns={deviceColumns}
              rows={devices.state.data}
              rowKey={(d) => d.id}
              caption={t('devices.title')}
              data-testid="devices-table"
            />
          </div>
        )}
      </Section>

      <Dialog
        open={code !== null}
        title={t('code.title', { name: code?.user ?? '' })}
        onClose={() => setCode(null)}
        width="min(520px, calc(100vw - 32px))"
        data-testid="user-code-dialog"
        footer={
          <Button variant="primary" onClick={() => setCode(null)} data-testid="user-code-close">
            {t('code.done')}
          </Button>
        }
      >
        {code ? (
          <div className="stack enrol-code">
            <CopyBlock text={code.code} label={t('code.label')} data-testid="user-code" />
            <Banner tone="warning" inline>
              {t('code.once', { time: formatDateTime(code.expires_at, lang) })}
            </Banner>
          </div>
        ) : null}
      </Dialog>
      <Dialog
        open={revoking !== null}
        title={t('devices.revokeTitle', { name: revoking?.name ?? '' })}
        onClose={() => setRevoking(null)}
        data-testid="device-revoke-dialog"
        footer={
          <>
            <Button onClick={() => setRevoking(null)}>{t('common.cancel')}</Button>
            <Button
              variant="danger"
              needsServer
              busy={busy === 'revoke'}
              onClick={() => {
                const d = revoking;
                setRevoking(null);
                if (d)
                  void act(
                    'revoke',
                    () => call((api) => api.devices.revoke({ id: d.id })),
                    t('devices.revokedDone', { name: d.name }),
                  );
              }}
              data-testid="device-revoke-confirm"
            >
              {t('devices.revoke')}
            </Button>
          </>
        }
      >
        <p>{t('devices.revokeBody', { user: revoking?.user ?? '' })}</p>
      </Dialog>
    </div>
  );
}

function AddUser(props: { onAdded: (name: string) => void }): ReactNode {
  const t = useT('company');
  const toast = useToast();
  const explain = useExplain();
  const [name, setName] = useState('');
  const [role, setRole] = useState<'clerk' | 'admin'>('clerk');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!/^[\p{L}\p{N}_.@-]{1,64}$/u.test(trimmed)) {
      setError(t('users.nameInvalid'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await call((api) => api.users.add({ name: trimmed, role }));
      toast(t('users.added', { name: trimmed }));
      setName('');
      props.onAdded(trimmed);
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t('users.add')} hint={t('users.addHint')}>
      <form className="form-row form-row-top" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('users.name')}
          fieldClassName="users-name-field"
          value={name}
          error={error}
          onChange={(v) => {
            setName(v);
            setError(null);
          }}
          data-testid="user-add-name"
        />
        <Field label={t('users.role')} className="field-narrow">
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={role}
              onChange={(e) => setRole(e.currentTarget.value === 'admin' ? 'admin' : 'clerk')}
              data-testid="user-add-role"
            >
              <option value="clerk">{t('role.clerk')}</option>
              <option value="admin">{t('role.admin')}</option>
            </select>
          )}
        </Field>
        <Button type="submit" variant="primary" needsServer busy={busy} data-testid="user-add-submit">
          {t('users.addSubmit')}
        </Button>
      </form>
    </Section>
  );
}
