// Top-up: a package of requests for the account (the account becomes paid), typed or picked from presets.
import { useState, type FormEvent, type ReactNode } from 'react';
import type { AccountView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useAccountLabel } from '../../app/account-name';
import { Button, TextField, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatInteger } from '../../lib/format';
import { Section, useExplain } from '../settings/kit';
import { MAX_REQUESTS, TOPUP_PRESETS, parseWhole, type NumberProblem } from './logic';
import { numberError } from './numbers';

export function TopupSection({
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
          account: accountLabel(account.name),
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
          <TextField
            label={t('topup.amount')}
            error={numberError(t, problem, 1, MAX_REQUESTS, lang)}
            inputMode="numeric"
            className="num"
            placeholder={t('topup.placeholder')}
            value={amount}
            onChange={(v) => {
              setAmount(v);
              setProblem(null);
            }}
            data-testid={`topup-amount-${account.name}`}
          />
          <Button
            needsServer
            type="submit"
            variant="primary"
            busy={busy}
            data-testid={`topup-submit-${account.name}`}
          >
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
