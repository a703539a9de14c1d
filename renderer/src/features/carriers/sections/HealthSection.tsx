// The carrier's health: status in words, the last error in plain language (the core's technical text
// under it), median latency and the last good answer.
import type { ReactNode } from 'react';
import { useLang, useT } from '../../../i18n';
import { formatDateTime, formatSeconds } from '../../../lib/format';
import { Section } from '../../settings/kit';
import { describeLastError } from '../logic';
import type { SectionProps } from './types';

export function HealthSection({ carrier }: SectionProps): ReactNode {
  const t = useT('carriers');
  const { lang } = useLang();
  const err = describeLastError(carrier.last_error);
  return (
    <Section title={t('health.title')} data-testid={`carrier-health-${carrier.code}`}>
      <dl className="kv">
        <dt>{t('health.status')}</dt>
        <dd>{t(`statusHint.${carrier.status}`)}</dd>
        <dt>{t('health.lastError')}</dt>
        <dd data-testid={`carrier-last-error-${carrier.code}`}>
          {err ? (
            <>
              <span className={carrier.status === 'available' ? undefined : 'error-text'}>
                {t(`lastError.${err.kind}`)}
              </span>
              {err.detail ? (
                <div className="field-hint">
                  {t('lastError.detail')}: <span className="mono">{err.detail}</span>
                </div>
              ) : null}
            </>
          ) : (
            <span className="muted">{t('health.noErrors')}</span>
          )}
        </dd>
        <dt>{t('health.latency')}</dt>
        <dd className="num" style={{ textAlign: 'left' }} data-testid={`carrier-latency-${carrier.code}`}>
          {carrier.median_latency_ms === null ? (
            <span className="muted">{t('health.noData')}</span>
          ) : (
            formatSeconds(carrier.median_latency_ms, lang)
          )}
        </dd>
        <dt>{t('health.lastSuccess')}</dt>
        <dd>
          {carrier.last_success_at ? (
            formatDateTime(carrier.last_success_at, lang)
          ) : (
            <span className="muted">{t('health.never')}</span>
          )}
        </dd>
      </dl>
    </Section>
  );
}
