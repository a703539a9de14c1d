// One account: the balance in large type, its tier and request-rate limit (tier or override), the top-up
// form and the low-balance threshold. Every action answers with the account's new state.
import { useState, type FormEvent, type ReactNode } from 'react';
import type { AccountView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { Badge, Button, Field, Input, useToast } from '../../components';
import { plural, useLang, useT, type Lang, type ScopedT } from '../../i18n';
import { formatDateTime, formatDecimal, formatInteger } from '../../lib/format';
import { RadioGroup, Section, useExplain } from '../settings/kit';
import {
  MAX_BURST,
  MAX_REQUESTS,
  MAX_RPS,
  TOPUP_PRESETS,
  isLow,
  parseRps,
  parseWhole,
  thresholdRequests,
  type NumberProblem,
} from './logic';

type Threshold = AccountView['threshold'];

export function requestsWord(n: number, lang: Lang): string {
  return lang === 'ru'
    ? plural('ru', n, { one: 'запрос', few: 'запроса', many: 'запросов', other: 'запроса' })
    : plural('en', n, { one: 'request', other: 'requests' });
}

export function AccountPanel(props: { account: AccountView; onChange: (a: AccountView) => void }): ReactNode {
  const t = useT('balance');
  const { lang } = useLang();
  const { account } = props;
  const low = isLow(account);
  return (
    <article
      className="card account"
      aria-labelledby={`account-${account.id}-title`}
      data-testid={`account-${account.name}`}
      data-account={account.name}
    >
      <header className="card-head">
        <h2 className="card-title" id={`account-${account.id}-title`}>
          {account.name}
        </h2>
        <Badge tone={account.tier === 'paid' ? 'accent' : 'neutral'} data-testid={`tier-${account.name}`}>
          <span data-tier={account.tier}>{t(`tier.${account.tier}`)}</span>
        </Badge>
        {low ? (
          <Badge tone="warn" data-testid={`low-${account.name}`}>
            {t('lowBadge')}
          </Badge>
        ) : null}
        <span className="card-head-end muted">
          {t('createdAt', { date: formatDateTime(account.created_at, lang) })}
        </span>
      </header>
      <div className="card-body account-body">
        <section className="section balance-big-wrap" aria-label={t('balanceLabel')}>
          <div className="balance-big" data-testid={`balance-${account.name}`} data-balance={account.balance}>
            {formatInteger(account.balance, lang)}
          </div>
          <div className="balance-unit">
            {t('balanceUnit', { word: requestsWord(account.balance, lang) })}
          </div>
          <div className="field-hint">
            {account.last_package === null
              ? t('noPackage')
              : t('lastPackage', { n: formatInteger(account.last_package, lang) })}
          </div>
        </section>
        <TopupSection {...props} />
        <LimitsSection {...props} />
        <ThresholdSection {...props} />
      </div>
    </article>
  );
}

/** 10000 → "10 000", 2.5 → "2,5". */
function formatRps(rps: number, lang: Lang): string {
  return Number.isInteger(rps) ? formatInteger(rps, lang) : formatDecimal(rps, lang);
}

function numberError(
  t: ScopedT<'balance'>,
  p: NumberProblem | null,
  min: number,
  max: number,
  lang: Lang,
): string | null {
  return p ? t(`num.${p}`, { min: formatInteger(min, lang), max: formatInteger(max, lang) }) : null;
}

function TopupSection({
  account,
  onChange,
}: {
  account: AccountView;
  onChange: (a: AccountView) => void;
}): ReactNode {
  const t = useT('balance');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<NumberProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const parsed = parseWhole(amount, 1, MAX_REQUESTS);
    if (!parsed.ok) {
      setProblem(parsed.problem);
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const next = await call((api) => api.accounts.topup({ account: account.name, requests: parsed.value }));
      onChange(next);
      setAmount('');
      toast(
        t('topup.done', {
          n: formatInteger(parsed.value, lang),
          account: account.name,
          balance: formatInteger(next.balance, lang),
        }),
      );
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t('topup.title')} hint={account.tier === 'free' ? t('topup.hintFree') : t('topup.hint')}>
      <form className="stack" style={{ gap: 8 }} onSubmit={(e) => void submit(e)} noValidate>
        <div className="form-row form-row-top">
          <Field label={t('topup.amount')} error={numberError(t, problem, 1, MAX_REQUESTS, lang)}>
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                invalid={invalid}
                inputMode="numeric"
                className="num"
                placeholder={t('topup.placeholder')}
                value={amount}
                onChange={(e) => {
                  setAmount(e.currentTarget.value);
                  setProblem(null);
                }}
                data-testid={`topup-amount-${account.name}`}
              />
            )}
          </Field>
          <Button type="submit" variant="primary" busy={busy} data-testid={`topup-submit-${account.name}`}>
            {t('topup.submit')}
          </Button>
        </div>
        <div className="form-actions" role="group" aria-label={t('topup.presets')}>
          {TOPUP_PRESETS.map((n) => (
            <Button
              key={n}
              size="sm"
              variant="ghost"
              onClick={() => {
                setAmount(String(n));
                setProblem(null);
              }}
            >
              +{formatInteger(n, lang)}
            </Button>
          ))}
        </div>
        {formError ? (
          <div className="form-error" role="alert">
            {formError}
          </div>
        ) : null}
      </form>
    </Section>
  );
}

function LimitsSection({
  account,
  onChange,
}: {
  account: AccountView;
  onChange: (a: AccountView) => void;
}): ReactNode {
  const t = useT('balance');
  const { lang } = useLang();
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
      t('limits.saved', { account: account.name }),
    );
  };

  const clear = (): void =>
    void run(
      () => call((api) => api.accounts.clearLimits({ account: account.name })),
      t('limits.cleared', { account: account.name }),
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
            <Field
              label={t('limits.rps')}
              error={rpsProblem === 'min' ? t('num.positive') : numberError(t, rpsProblem, 0, MAX_RPS, lang)}
              className="field-narrow"
            >
              {({ id, describedBy, invalid }) => (
                <Input
                  id={id}
                  aria-describedby={describedBy}
                  invalid={invalid}
                  inputMode="decimal"
                  className="num"
                  value={rps}
                  onChange={(e) => {
                    setRps(e.currentTarget.value);
                    setRpsProblem(null);
                  }}
                  data-testid={`limits-rps-${account.name}`}
                />
              )}
            </Field>
            <Field
              label={t('limits.burst')}
              error={numberError(t, burstProblem, 1, MAX_BURST, lang)}
              className="field-narrow"
            >
              {({ id, describedBy, invalid }) => (
                <Input
                  id={id}
                  aria-describedby={describedBy}
                  invalid={invalid}
                  inputMode="numeric"
                  className="num"
                  value={burst}
                  onChange={(e) => {
                    setBurst(e.currentTarget.value);
                    setBurstProblem(null);
                  }}
                  data-testid={`limits-burst-${account.name}`}
                />
              )}
            </Field>
          </div>
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={busy} data-testid={`limits-save-${account.name}`}>
              {t('limits.save')}
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="form-actions">
          <Button size="sm" onClick={open} data-testid={`limits-edit-${account.name}`}>
            {override ? t('limits.change') : t('limits.set')}
          </Button>
          {override ? (
            <Button
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

function ThresholdSection({
  account,
  onChange,
}: {
  account: AccountView;
  onChange: (a: AccountView) => void;
}): ReactNode {
  const t = useT('balance');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const [error, setError] = useState<string | null>(null);
  // The choice shows at once; the account's stored value catches up (or the choice goes back on error).
  const [pending, setPending] = useState<Threshold | null>(null);

  const options: { value: Threshold; label: string; title?: string }[] = [
    { value: '100', label: formatInteger(100, lang) },
    { value: '500', label: formatInteger(500, lang) },
    { value: '1000', label: formatInteger(1000, lang) },
    { value: 'auto', label: t('threshold.auto'), title: t('threshold.autoTitle') },
    { value: 'off', label: t('threshold.off') },
  ];

  const choose = async (threshold: Threshold): Promise<void> => {
    setError(null);
    setPending(threshold);
    try {
      const next = await call((api) => api.accounts.setThreshold({ account: account.name, threshold }));
      onChange(next);
      toast(t('threshold.saved', { account: account.name }));
    } catch (err) {
      setError(explain(err));
    } finally {
      setPending(null);
    }
  };

  const limit = thresholdRequests(account);
  const explanation =
    account.threshold === 'off'
      ? t('threshold.explainOff')
      : limit === null
        ? t('threshold.explainAutoNone')
        : account.threshold === 'auto'
          ? t('threshold.explainAuto', {
              n: formatInteger(limit, lang),
              pkg: formatInteger(account.last_package ?? 0, lang),
            })
          : t('threshold.explain', { n: formatInteger(limit, lang) });

  return (
    <Section title={t('threshold.title')}>
      <RadioGroup
        name={`threshold-${account.id}`}
        legend={t('threshold.legend')}
        hideLegend
        value={pending ?? account.threshold}
        options={options}
        onChange={(v) => void choose(v)}
        data-testid={`threshold-${account.name}`}
      />
      <div className="field-hint" data-testid={`threshold-explain-${account.name}`}>
        {explanation}
      </div>
      {error ? (
        <div className="form-error" role="alert">
          {error}
        </div>
      ) : null}
    </Section>
  );
}
