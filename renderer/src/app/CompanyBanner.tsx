// Company mode on every screen (#20): a strip under the top bar while the server is away or refuses this
// desk, and in the top bar who is signed in. The strip never offers local data instead: it says what is
// wrong, that it retries by itself, and where to go when only an administrator can help.
import type { ReactNode } from 'react';
import { Banner } from '../components';
import { useT } from '../i18n';
import { useCompany } from './company';
import { hrefFor, useRoute } from './router';
import './company.css';

export function CompanyBanner(): ReactNode {
  const t = useT('company');
  const route = useRoute();
  const { status } = useCompany();
  if (status.mode !== 'company') return null;
  const onCompanyTab = route.screen === 'settings' && route.params[0] === 'company';
  if (status.connection === 'offline' || status.connection === 'connecting') {
    return (
      <Banner tone="warning" data-testid="company-banner">
        <span data-state={status.connection} data-testid="company-banner-text">
          {status.connection === 'offline' ? t('banner.offline') : t('banner.connecting')}
        </span>{' '}
        <span className="muted">{t('banner.offlineHint')}</span>
      </Banner>
    );
  }
  if (status.connection === 'refused') {
    return (
      <Banner
        tone="danger"
        data-testid="company-banner"
        actions={
          onCompanyTab ? null : (
            <a className="btn btn-sm btn-secondary" href={hrefFor('settings', 'company')}>
              {t('banner.toSettings')}
            </a>
          )
        }
      >
        <span data-state="refused" data-testid="company-banner-text">
          {t('banner.refused')}
        </span>{' '}
        <span className="muted">{t('banner.refusedHint')}</span>
      </Banner>
    );
  }
  return null;
}

/** «Иванова · кассир» in the top bar: whose name goes into History and the audit log from this desk. */
export function CompanyChip(): ReactNode {
  const t = useT('company');
  const { status } = useCompany();
  if (status.mode !== 'company') return null;
  const online = status.connection === 'online';
  return (
    <a
      className="company-chip"
      href={hrefFor('settings', 'company')}
      title={t('chip.hint', { url: status.url ?? '' })}
      data-testid="company-chip"
      data-connection={status.connection}
    >
      <span className={`company-dot${online ? ' company-dot-on' : ''}`} aria-hidden="true" />
      <span className="company-chip-user">{status.user ?? '—'}</span>
      {status.role ? <span className="company-chip-role">{t(`role.${status.role}`)}</span> : null}
      <span className="sr-only">{online ? t('state.online') : t(`state.${status.connection}`)}</span>
    </a>
  );
}
