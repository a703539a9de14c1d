// The low-balance threshold: when the notice (banner, notification, log entry) fires for this account.
import { useServerGate } from '../../app/company';
import { useState, type ReactNode } from 'react';
import type { AccountView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useAccountLabel } from '../../app/account-name';
import { useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatInteger } from '../../lib/format';
import { RadioGroup, Section, useExplain } from '../settings/kit';
import { THRESHOLD_VALUES, thresholdRequests } from './logic';

type Threshold = AccountView['threshold'];

export function ThresholdSection({
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
  const [error, setError] = useState<string | null>(null);
  // The choice shows at once; the account's stored value catches up (or the choice goes back on error).
  const [pending, setPending] = useState<Threshold | null>(null);

  // The core's list of thresholds, in its order: a value added there shows here without a change.
  const options = THRESHOLD_VALUES.map((value): { value: Threshold; label: string; title?: string } =>
    value === 'auto'
      ? { value, label: t('threshold.auto'), title: t('threshold.autoTitle') }
      : value === 'off'
        ? { value, label: t('threshold.off') }
        : { value, label: formatInteger(Number(value), lang) },
  );

  const choose = async (threshold: Threshold): Promise<void> => {
    setError(null);
    setPending(threshold);
    try {
      const next = await call((api) => api.accounts.setThreshold({ account: account.name, threshold }));
      onChange(next);
      toast(t('threshold.saved', { account: accountLabel(account.name) }));
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

  // Company mode (#20): the choice waits while the server is away.
  const gate = useServerGate();
  return (
    <Section title={t('threshold.title')}>
      <RadioGroup
        name={`threshold-${account.id}`}
        legend={t('threshold.legend')}
        hideLegend
        value={pending ?? account.threshold}
        options={options}
        onChange={(v) => void choose(v)}
        disabled={gate.blocked}
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
