// Settings → API keys: the table (never a secret: masked prefix and last four only), create (the secret is
// shown once), import (paste or file; a key or an export document), revoke (confirmed, immediate), export.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { AccountView, KeyView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskEvent, useDeskQuery } from '../../api/hooks';
import { useAccountLabel } from '../../app/account-name';
import {
  Badge,
  Button,
  Dialog,
  EmptyState,
  ErrorState,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { CreateKeyDialog } from './CreateKeyDialog';
import { ImportKeyDialog } from './ImportKeyDialog';
import { downloadText, useExplain } from './kit';
import './keys.css';

export function KeysTab(): ReactNode {
  const t = useT('settings');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const accountLabel = useAccountLabel();
  const keys = useDeskQuery((api) => api.keys.list(), []);
  const accounts = useDeskQuery((api) => api.accounts.list(), []);
  const [dialog, setDialog] = useState<'create' | 'import' | null>(null);
  const [revoking, setRevoking] = useState<KeyView | null>(null);
  const [exporting, setExporting] = useState(false);

  // "Last used" changes whenever a local tool calls /v1: re-read the list now and then while the tab is
  // open, and soon after a charge (balance:changed) — one call per burst.
  const reloadKeys = keys.reload;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reloadKeys();
    }, 15_000);
    return () => clearInterval(timer);
  }, [reloadKeys]);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useDeskEvent('balance:changed', () => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void reloadKeys();
    }, 500);
  });

  const exportKeys = async (): Promise<void> => {
    setExporting(true);
    try {
      const file = await call((api) => api.keys.export());
      downloadText(file.filename, file.json);
      toast(t('keys.exported', { name: file.filename }));
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setExporting(false);
    }
  };

  const columns: Column<KeyView>[] = [
    {
      key: 'name',
      header: t('keys.col.name'),
      render: (k) => (
        <span className="key-name">
          {/* A long name is cut with an ellipsis (the whole of it in the tooltip): the row must leave room
              for «Отозвать» at 1024 px (#17 item 9). */}
          <span className="key-name-text" title={k.name}>
            {k.name}
          </span>
          {k.origin === 'imported' ? (
            <>
              {' '}
              <Badge title={t('keys.importedHint')}>{t('keys.imported')}</Badge>
            </>
          ) : null}
        </span>
      ),
    },
    { key: 'account', header: t('keys.col.account'), render: (k) => accountLabel(k.account) },
    // The beginning and the last four in one cell, as the key is read aloud: rdk_AbCd…x9Zq.
    {
      key: 'key',
      header: t('keys.col.prefix'),
      render: (k) => (
        <span className="mono">
          {k.prefix}
          {k.last_four}
        </span>
      ),
    },
    { key: 'created', header: t('keys.col.created'), render: (k) => formatDateTime(k.created_at, lang) },
    {
      key: 'used',
      header: t('keys.col.lastUsed'),
      render: (k) =>
        k.last_used_at ? (
          formatDateTime(k.last_used_at, lang)
        ) : (
          <span className="muted">{t('keys.neverUsed')}</span>
        ),
    },
    {
      key: 'state',
      header: t('keys.col.state'),
      render: (k) =>
        k.state === 'active' ? (
          <Badge tone="ok">{t('keys.state.active')}</Badge>
        ) : (
          <Badge
            tone="danger"
            title={
              k.revoked_at ? t('keys.revokedAt', { date: formatDateTime(k.revoked_at, lang) }) : undefined
            }
          >
            {t('keys.state.revoked')}
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('keys.col.actions')}</span>,
      align: 'right',
      render: (k) =>
        k.state === 'active' ? (
          <Button
            needsServer
            size="sm"
            variant="danger"
            onClick={() => setRevoking(k)}
            aria-label={t('keys.revokeLabel', { name: k.name })}
            data-testid="key-revoke"
          >
            {t('keys.revoke')}
          </Button>
        ) : null,
    },
  ];

  const list = keys.state.data;
  const accountList: AccountView[] = accounts.state.data ?? [];
  const activeCount = list?.filter((k) => k.state === 'active').length ?? 0;

  return (
    <div className="stack" data-testid="keys-tab">
      <p className="screen-lead">{t('keys.lead')}</p>
      <div className="toolbar">
        <Button needsServer variant="primary" onClick={() => setDialog('create')} data-testid="key-create">
          {t('keys.create')}
        </Button>
        <Button needsServer onClick={() => setDialog('import')} data-testid="key-import">
          {t('keys.import')}
        </Button>
        <Button
          needsServer
          onClick={() => void exportKeys()}
          busy={exporting}
          disabled={!list || list.length === 0}
          title={t('keys.exportHint')}
          data-testid="key-export"
        >
          {t('keys.export')}
        </Button>
        <span className="spacer muted">
          {list ? t('keys.count', { active: activeCount, total: list.length }) : null}
        </span>
      </div>
      {list === undefined ? (
        keys.state.status === 'error' ? (
          <ErrorState
            error={keys.state.error}
            title={t('keys.loadError')}
            onRetry={() => void keys.reload()}
          />
        ) : (
          <LoadingState>{t('keys.loading')}</LoadingState>
        )
      ) : list.length === 0 ? (
        <EmptyState
          title={t('keys.empty.title')}
          data-testid="keys-empty"
          actions={
            <>
              <Button variant="primary" onClick={() => setDialog('create')}>
                {t('keys.create')}
              </Button>
              <Button onClick={() => setDialog('import')}>{t('keys.import')}</Button>
            </>
          }
        >
          <p>{t('keys.empty.body')}</p>
        </EmptyState>
      ) : (
        <div className="panel">
          <Table
            columns={columns}
            rows={list}
            rowKey={(k) => k.id}
            caption={t('keys.caption')}
            className="keys-table"
            rowProps={(k) => ({
              'data-testid': 'key-row',
              'data-key-name': k.name,
              'data-state': k.state,
              className: k.state === 'revoked' ? 'row-muted' : undefined,
            })}
            data-testid="keys-table"
          />
        </div>
      )}

      <CreateKeyDialog
        open={dialog === 'create'}
        accounts={accountList}
        onClose={() => setDialog(null)}
        onCreated={() => void keys.reload()}
      />
      <ImportKeyDialog
        open={dialog === 'import'}
        accounts={accountList}
        onClose={() => setDialog(null)}
        onImported={() => {
          void keys.reload();
          void accounts.reload();
        }}
      />
      <RevokeDialog
        keyView={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={(k) => {
          keys.setData((l) => (l ?? []).map((x) => (x.id === k.id ? k : x)));
          setRevoking(null);
        }}
      />
    </div>
  );
}

function RevokeDialog(props: {
  keyView: KeyView | null;
  onClose: () => void;
  onRevoked: (k: KeyView) => void;
}): ReactNode {
  const t = useT('settings');
  const toast = useToast();
  const explain = useExplain();
  const accountLabel = useAccountLabel();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const k = props.keyView;

  const revoke = async (): Promise<void> => {
    if (!k) return;
    setBusy(true);
    setError(null);
    try {
      const revoked = await call((api) => api.keys.revoke({ id: k.id }));
      const { already_revoked: _already, ...view } = revoked;
      toast(t('keys.revoked', { name: k.name }));
      props.onRevoked(view);
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const close = (): void => {
    setError(null);
    props.onClose();
  };

  return (
    <Dialog
      open={k !== null}
      title={t('revoke.title')}
      onClose={close}
      initialFocus="[data-autofocus]"
      data-testid="revoke-dialog"
      footer={
        <>
          <Button onClick={close} data-autofocus="">
            {t('common.cancel')}
          </Button>
          <Button
            needsServer
            variant="danger"
            busy={busy}
            onClick={() => void revoke()}
            data-testid="revoke-confirm"
          >
            {t('revoke.confirm')}
          </Button>
        </>
      }
    >
      {k ? (
        <div className="stack">
          <p style={{ margin: 0 }}>
            {t('revoke.body', { name: k.name, account: accountLabel(k.account) })}{' '}
            <span className="mono">
              {k.prefix}
              {k.last_four}
            </span>
          </p>
          <div className="warning-box">
            <strong>{t('revoke.warnTitle')}</strong>
            {t('revoke.warnBody')}
          </div>
          {error ? (
            <div className="form-error" role="alert">
              {error}
            </div>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
