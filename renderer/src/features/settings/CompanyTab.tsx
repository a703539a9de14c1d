// Settings → «Сервер компании» (#20). A local desk joins here (CompanyJoinForm.tsx: check the server, compare
// its certificate, trade the administrator's code); a joined desk shows who and where it is, the link's
// state, and the way back to its own data folder.
import { useState, type ReactNode } from 'react';
import type { CompanyStatus } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useCompany } from '../../app/company';
import { Badge, Button, Dialog, useToast, type BadgeTone } from '../../components';
import { useT } from '../../i18n';
import { CompanyJoinForm } from './CompanyJoinForm';
import { Fingerprint } from './CompanyFingerprint';
import { useExplainCompany } from './company-errors';
import { Section } from './kit';
import './company.css';

export function CompanyTab(): ReactNode {
  const { status } = useCompany();
  return status.mode === 'company' ? <CompanyJoined status={status} /> : <CompanyJoinForm />;
}

const CONNECTION_TONE: Record<CompanyStatus['connection'], BadgeTone> = {
  local: 'neutral',
  online: 'ok',
  connecting: 'warn',
  offline: 'warn',
  refused: 'danger',
};

function CompanyJoined({ status }: { status: CompanyStatus }): ReactNode {
  const t = useT('company');
  const toast = useToast();
  const explain = useExplainCompany();
  const { setStatus } = useCompany();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const leave = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const next = await call((api) => api.company.leave());
      setConfirming(false);
      setStatus(next);
      toast(t('left'));
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack" data-testid="company-tab" data-mode="company">
      <p className="screen-lead">{t('lead.company')}</p>
      <div className="panel settings-panel">
        <Section
          title={t('joinedTitle')}
          actions={
            <Badge tone={CONNECTION_TONE[status.connection]} data-testid="company-connection">
              <span data-connection={status.connection}>{t(`state.${status.connection}`)}</span>
            </Badge>
          }
        >
          {status.connection === 'refused' ? (
            <p className="form-error" role="alert" data-testid="company-refused">
              {t('info.refusedHint')}
            </p>
          ) : status.connection === 'offline' || status.connection === 'connecting' ? (
            <p className="muted">{t('info.offlineHint')}</p>
          ) : null}
          <dl className="company-facts" data-testid="company-facts">
            <dt>{t('info.server')}</dt>
            <dd className="mono" data-testid="company-url">
              {status.url}
            </dd>
            <dt>{t('info.user')}</dt>
            <dd data-testid="company-user">{status.user}</dd>
            <dt>{t('info.role')}</dt>
            <dd data-testid="company-role">{status.role ? t(`role.${status.role}`) : '—'}</dd>
            <dt>{t('info.device')}</dt>
            <dd data-testid="company-device">{status.device}</dd>
            <dt>{t('info.fingerprint')}</dt>
            <dd>
              {status.fingerprint ? (
                <Fingerprint value={status.fingerprint} />
              ) : (
                <span className="muted">{t('info.fingerprintNone')}</span>
              )}
            </dd>
          </dl>
        </Section>
      </div>
      <div className="form-actions">
        <Button variant="danger" onClick={() => setConfirming(true)} data-testid="company-leave">
          {t('leave')}
        </Button>
      </div>
      <Dialog
        open={confirming}
        title={t('leave.title')}
        onClose={() => setConfirming(false)}
        width="min(520px, calc(100vw - 32px))"
        data-testid="company-leave-dialog"
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>{t('common.cancel')}</Button>
            <Button
              variant="danger"
              busy={busy}
              onClick={() => void leave()}
              data-testid="company-leave-confirm"
            >
              {t('leave.confirm')}
            </Button>
          </>
        }
      >
        <p>{t('leave.body')}</p>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </Dialog>
    </div>
  );
}
