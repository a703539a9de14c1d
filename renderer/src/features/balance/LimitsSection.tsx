// The account's request-rate limit: the tier's, or an override set here (and cleared back to the tier).
import { useState, type FormEvent, type ReactNode } from 'react';
import type { AccountView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useAccountLabel } from '../../app/account-name';
import { Badge, Button, TextField, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDecimal, formatInteger } from '../../lib/format';
import { Section, useExplain } from '../settings/kit';
import { MAX_BURST, MAX_RPS, parseRps, parseWhole, type NumberProblem } from './logic';
import { formatRps, numberError } from './numbers';

export function LimitsSection({
  account,
  onChange,
}: {
  account: AccountView;
  onChange: (a: AccountView) => void;
}): ReactNode {
  const t = useT('balance');
  const { lang } = useLang();
  const accountLabel = useAccountLabel();
  const toast = useToast();
  const explain = useExplain();
  const override = account.limits.source === 'override';
  const [editing, setEditing] = useState(false);
  const [rps, setRps] = useState('');
  const [burst, setBurst] = useState('');
  const [rpsProblem, setRpsProblem] = useState<NumberProblem | null>(null);
  const [burstProblem, setBurstProblem] = useState<NumberProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const open = (): void => {
    setRps(formatDecimal(account.limits.rps, lang));
    setBurst(String(account.limits.burst));
    setRpsProblem(null);
    setBurstProblem(null);
    setFormError(null);
    setEditing(true);
  };

  const run = async (fn: () => Promise<AccountView>, done: string): Promise<void> => {
    setBusy(true);
    setFormError(null);
    try {
      onChange(await fn());
      setEditing(false);
      toast(done);
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const r = parseRps(rps);
    const b = parseWhole(burst, 1, MAX_BURST);
    setRpsProblem(r.ok ? null : r.problem);
    setBurstProblem(b.ok ? null : b.problem);
    if (!r.ok || !b.ok) return;
    void run(
      () => call((api) => api.accounts.setLimits({ account: account.name, rps: r.value, burst: b.value })),
      t('limits.saved', { account: accountLabel(account.name) }),
    );
  };

  const clear = (): void =>
    void run(
      () => call((api) => api.accounts.clearLimits({ account: account.name })),
      t('limits.cleared', { account: accountLabel(account.name) }),
    );

  return (
    <Section title={t('limits.title')} data-testid={`limits-${account.name}`}>
      <div className="limits-line">
        <span className="limits-value" data-testid={`limits-value-${account.name}`}>
          {t('limits.value', {
            rps: formatRps(account.limits.rps, lang),
            burst: formatInteger(account.limits.burst, lang),
          })}
        </span>
        <Badge tone={override ? 'warn' : 'neutral'} data-testid={`limits-source-${account.name}`}>
          {override ? t('limits.override') : t('limits.tier', { tier: t(`tier.${account.tier}`) })}
        </Badge>
      </div>
      <div className="field-hint">{override ? t('limits.overrideHint') : t('limits.tierHint')}</div>
      {editing ? (
        <form className="stack" style={{ gap: 8 }} onSubmit={submit} noValidate>
          <div className="form-row form-row-top">
            <TextField
              label={t('limits.rps')}
              error={rpsProblem === 'min' ? t('num.positive') : numberError(t, rpsProblem, 0, MAX_RPS, lang)}
              fieldClassName="field-narrow"
              inputMode="decimal"
              className="num"
              value={rps}
              onChange={(v) => {
                setRps(v);
                setRpsProblem(null);
              }}
              data-testid={`limits-rps-${account.name}`}
            />
            <TextField
              label={t('limits.burst')}
              error={numberError(t, burstProblem, 1, MAX_BURST, lang)}
              fieldClassName="field-narrow"
              inputMode="numeric"
              className="num"
              value={burst}
              onChange={(v) => {
                setBurst(v);
                setBurstProblem(null);
              }}
              data-testid={`limits-burst-${account.name}`}
            />
          </div>
          <div className="form-actions">
            <Button
              needsServer
              type="submit"
              variant="primary"
              busy={busy}
              data-testid={`limits-save-${account.name}`}
            >
              {t('limits.save')}
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="form-actions">
          <Button needsServer size="sm" onClick={open} data-testid={`limits-edit-${account.name}`}>
            {override ? t('limits.change') : t('limits.set')}
          </Button>
          {override ? (
            <Button
              needsServer
              size="sm"
              variant="ghost"
              busy={busy}
              onClick={clear}
              data-testid={`limits-clear-${account.name}`}
            >
              {t('limits.clear')}
            </Button>
          ) : null}
        </div>
      )}
      {formError ? (
        <div className="form-error" role="alert">
          {formError}
        </div>
      ) : null}
    </Section>
  );
}
