// Баланс: per account its balance in large type, tier and limits (with an override), top-up, the
// low-balance threshold; account creation; the notification log. Live: 'balance:changed' moves the numbers,
// 'balance:low' adds the new notice to the log.
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import type { AccountView, NotificationView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskEvent, useDeskQuery, type DeskQuery } from '../../api/hooks';
import {
  Banner,
  Button,
  Dialog,
  EmptyState,
  ErrorState,
  FormDialogFooter,
  LoadingState,
  Table,
  TextField,
  useToast,
  type Column,
} from '../../components';
import { useCan } from '../../app/company';
import { useAccountLabel } from '../../app/account-name';
import { useLang, useT } from '../../i18n';
import { formatDateTime, formatInteger } from '../../lib/format';
import { Section, useExplain } from '../settings/kit';
import { AccountPanel } from './AccountPanel';
import {
  DEFAULT_BALANCE,
  MAX_REQUESTS,
  checkAccountName,
  parseWhole,
  type NameProblem,
  type NumberProblem,
} from './logic';
import './balance.css';

export function BalanceScreen(): ReactNode {
  const t = useT('balance');
  const accounts = useDeskQuery((api) => api.accounts.list(), []);
  const notifications = useDeskQuery((api) => api.notifications.list({ limit: 100 }), []);
  const [creating, setCreating] = useState(false);
  const can = useCan();

  const replace = useCallback(
    (next: AccountView) =>
      accounts.setData((list) => {
        const l = list ?? [];
        return l.some((a) => a.id === next.id) ? l.map((a) => (a.id === next.id ? next : a)) : [...l, next];
      }),
    [accounts],
  );

  useDeskEvent('balance:changed', (e) => {
    const list = accounts.state.data;
    if (list && !list.some((a) => a.id === e.account_id)) {
      // An account this screen has not seen (created by a key import or the CLI): read them all again.
      void accounts.reload();
      return;
    }
    accounts.setData((l) => (l ?? []).map((a) => (a.id === e.account_id ? { ...a, balance: e.balance } : a)));
  });
  useDeskEvent('balance:low', () => void notifications.reload());

  const list = accounts.state.data;
  return (
    <div className="screen" data-testid="balance-screen">
      <div className="screen-head">
        <h1 className="screen-title">{t('title')}</h1>
        {can('accounts:create') ? (
          <div className="screen-actions">
            <Button
              needsServer
              variant="primary"
              onClick={() => setCreating(true)}
              data-testid="account-create"
            >
              {t('create.open')}
            </Button>
          </div>
        ) : null}
      </div>
      <p className="screen-lead">{t('lead')}</p>

      {list === undefined ? (
        accounts.state.status === 'error' ? (
          <ErrorState
            error={accounts.state.error}
            title={t('loadError')}
            onRetry={() => void accounts.reload()}
          />
        ) : (
          <LoadingState>{t('loading')}</LoadingState>
        )
      ) : list.length === 0 ? (
        <EmptyState
          title={t('empty.title')}
          actions={
            can('accounts:create') ? (
              <Button needsServer variant="primary" onClick={() => setCreating(true)}>
                {t('create.open')}
              </Button>
            ) : null
          }
        >
          <p>{t('empty.body')}</p>
        </EmptyState>
      ) : (
        <>
          {accounts.state.status === 'error' ? (
            <Banner tone="danger" inline>
              {t('refreshError')}
            </Banner>
          ) : null}
          <div className="stack" data-testid="account-list">
            {list.map((a) => (
              <AccountPanel key={a.id} account={a} onChange={replace} />
            ))}
          </div>
        </>
      )}

      <NotificationLog query={notifications} />

      <CreateAccountDialog
        open={creating}
        existing={(list ?? []).map((a) => a.name)}
        onClose={() => setCreating(false)}
        onCreated={(a) => {
          replace(a);
          setCreating(false);
        }}
      />
    </div>
  );
}

function NotificationLog(props: { query: DeskQuery<NotificationView[]> }): ReactNode {
  const t = useT('balance');
  const { lang } = useLang();
  const accountLabel = useAccountLabel();
  const { state, reload } = props.query;
  const columns: Column<NotificationView>[] = [
    { key: 'time', header: t('log.time'), render: (n) => formatDateTime(n.created_at, lang), width: '170px' },
    { key: 'account', header: t('log.account'), render: (n) => accountLabel(n.account) },
    { key: 'event', header: t('log.event'), render: () => t('log.kind.low_balance'), className: 'cell-wrap' },
    {
      key: 'threshold',
      header: t('log.threshold'),
      align: 'right',
      render: (n) => formatInteger(n.threshold, lang),
    },
    {
      key: 'balance',
      header: t('log.balance'),
      align: 'right',
      render: (n) => formatInteger(n.balance, lang),
    },
  ];
  return (
    <Section
      title={t('log.title')}
      hint={t('log.hint')}
      actions={
        <Button
          size="sm"
          variant="ghost"
          onClick={() => void reload()}
          busy={state.status === 'loading' && state.data !== undefined}
        >
          {t('log.refresh')}
        </Button>
      }
      className="panel log-panel"
      data-testid="notification-log"
    >
      {state.data === undefined ? (
        state.status === 'error' ? (
          <ErrorState error={state.error} title={t('log.loadError')} onRetry={() => void reload()} />
        ) : (
          <LoadingState />
        )
      ) : state.data.length === 0 ? (
        <EmptyState title={t('log.empty.title')} data-testid="notification-log-empty">
          <p>{t('log.empty.body')}</p>
        </EmptyState>
      ) : (
        <Table
          columns={columns}
          rows={state.data}
          rowKey={(n) => String(n.id)}
          caption={t('log.title')}
          data-testid="notification-table"
        />
      )}
    </Section>
  );
}

/** The field starts with what the core gives a new account when no balance is sent (core/contract). */
const INITIAL_BALANCE = String(DEFAULT_BALANCE);

function CreateAccountDialog(props: {
  open: boolean;
  existing: readonly string[];
  onClose: () => void;
  onCreated: (a: AccountView) => void;
}): ReactNode {
  const t = useT('balance');
  const toast = useToast();
  const explain = useExplain();
  const { lang } = useLang();
  const [name, setName] = useState('');
  const [balance, setBalance] = useState(INITIAL_BALANCE);
  const [nameError, setNameError] = useState<NameProblem | null>(null);
  const [balanceError, setBalanceError] = useState<NumberProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = (): void => {
    setName('');
    setBalance(INITIAL_BALANCE);
    setNameError(null);
    setBalanceError(null);
    setFormError(null);
    props.onClose();
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const n = checkAccountName(name, props.existing);
    const b = parseWhole(balance, 0, MAX_REQUESTS);
    setNameError(n);
    setBalanceError(b.ok ? null : b.problem);
    if (n || !b.ok) return;
    setBusy(true);
    setFormError(null);
    try {
      const created = await call((api) => api.accounts.create({ name: name.trim(), balance: b.value }));
      toast(t('create.done', { name: created.name }));
      setName('');
      setBalance(INITIAL_BALANCE);
      props.onCreated(created);
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={props.open}
      title={t('create.title')}
      onClose={close}
      data-testid="account-create-dialog"
      footer={
        <FormDialogFooter
          formId="account-create-form"
          onCancel={close}
          busy={busy}
          submitLabel={t('create.submit')}
          data-testid="account-create-submit"
        />
      }
    >
      <form id="account-create-form" className="stack" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('create.name')}
          error={nameError ? t(`name.${nameError}`) : null}
          hint={t('create.nameHint')}
          value={name}
          maxLength={64}
          onChange={(v) => {
            setName(v);
            setNameError(null);
          }}
          data-testid="account-create-name"
        />
        <TextField
          label={t('create.balance')}
          error={
            balanceError ? t(`num.${balanceError}`, { min: 0, max: formatInteger(MAX_REQUESTS, lang) }) : null
          }
          hint={t('create.balanceHint')}
          inputMode="numeric"
          value={balance}
          onChange={(v) => {
            setBalance(v);
            setBalanceError(null);
          }}
          className="num"
          data-testid="account-create-balance"
        />
        {formError ? (
          <div className="form-error" role="alert">
            {formError}
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}
