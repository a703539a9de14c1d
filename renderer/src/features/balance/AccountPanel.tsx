// One account: the balance in large type, its tier and request-rate limit (tier or override), the top-up
// form and the low-balance threshold. Every action answers with the account's new state.
import type { ReactNode } from 'react';
import type { AccountView } from '../../../../core/desk/contract';
import { useCan } from '../../app/company';
import { DEFAULT_ACCOUNT, useAccountLabel } from '../../app/account-name';
import { Badge } from '../../components';
import { plural, useLang, useT, type Lang } from '../../i18n';
import { formatDateTime, formatInteger } from '../../lib/format';
import { LimitsSection } from './LimitsSection';
import { isLow } from './logic';
import { ThresholdSection } from './ThresholdSection';
import { TopupSection } from './TopupSection';

export function requestsWord(n: number, lang: Lang): string {
  return lang === 'ru'
    ? plural('ru', n, { one: 'запрос', few: 'запроса', many: 'запросов', other: 'запроса' })
    : plural('en', n, { one: 'request', other: 'requests' });
}

export function AccountPanel(props: { account: AccountView; onChange: (a: AccountView) => void }): ReactNode {
  const t = useT('balance');
  const { lang } = useLang();
  const accountLabel = useAccountLabel();
  const { account } = props;
  const low = isLow(account);
  const can = useCan();
  return (
    <article
      className="card account"
      aria-labelledby={`account-${account.id}-title`}
      data-testid={`account-${account.name}`}
      data-account={account.name}
    >
      <header className="card-head">
        {/* `default` is the CLI's and the API's name, never a word on screen (#17 item 9): only in the tooltip. */}
        <h2
          className="card-title"
          id={`account-${account.id}-title`}
          title={account.name === DEFAULT_ACCOUNT ? t('technicalName', { name: account.name }) : undefined}
        >
          {accountLabel(account.name)}
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
        {/* Company mode (#20): a clerk reads the balance; changing it is the admin's (the role table). */}
        {can('accounts:topup') ? <TopupSection {...props} /> : null}
        {can('accounts:set-limits') ? <LimitsSection {...props} /> : null}
        {can('accounts:set-threshold') ? <ThresholdSection {...props} /> : null}
      </div>
    </article>
  );
}
