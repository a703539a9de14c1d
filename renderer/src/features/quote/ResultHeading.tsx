// The line above a result: what it answers (route, weight, box, value), whether the form has moved on since
// (then the result is outdated until the next quote), and, for simulated carriers, the sandbox marker on
// the results panel itself (issue #9).
import type { ReactNode } from 'react';
import type { ShipmentInput } from '../../../../core/contract/v1';
import { Badge } from '../../components';
import { useLang, useT, type Lang, type ScopedT } from '../../i18n';
import { formatDecimal, formatMoney, formatWeight } from '../../lib/format';

/**
 * "Москва → Казань · 1,2 кг, 30×20×10 см · ценность 1 500,50 ₽", or "… · ценность не указана" when none was
 * declared (issue #17: a missing value is said, not left out, so nobody reads it as forgotten by the app).
 */
export function describeShipment(s: ShipmentInput, lang: Lang, t: ScopedT<'quote'>): string {
  const p = s.parcel;
  const parts = [
    t('route', { from: s.from.city, to: s.to.city }),
    t('result.parcel', {
      weight: formatWeight(p.weight_grams, lang),
      l: formatDecimal(p.length_cm, lang),
      w: formatDecimal(p.width_cm, lang),
      h: formatDecimal(p.height_cm, lang),
    }),
  ];
  parts.push(
    s.declared_value_kopecks
      ? t('result.value', { value: formatMoney(s.declared_value_kopecks, lang) })
      : t('quoteInput.result.valueNone'),
  );
  return parts.join(' · ');
}

export function ResultHeading(props: {
  shipment: ShipmentInput | null;
  outdated: boolean;
  sandbox: boolean;
}): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
  if (!props.shipment) return null;
  return (
    <div className={`result-head${props.sandbox ? ' result-head-sandbox' : ''}`}>
      <div className="result-for">
        {props.sandbox ? (
          <Badge tone="warn" title={t('sandbox.panelText')} data-testid="results-sandbox-badge">
            {t('sandbox.panel')}
          </Badge>
        ) : null}
        <span className="sr-only">{t('result.label')}:</span>
        <span className="result-shipment" data-testid="result-for">
          {describeShipment(props.shipment, lang, t)}
        </span>
        {props.outdated ? (
          <Badge tone="warn" data-testid="result-outdated-badge">
            {t('result.outdated')}
          </Badge>
        ) : null}
        {props.sandbox ? (
          <span className="result-sandbox-text" role="note" data-testid="results-sandbox">
            {t('sandbox.panelText')}
          </span>
        ) : null}
      </div>
      {props.outdated ? (
        <p className="result-outdated" role="status" data-testid="result-outdated">
          {t('result.outdatedText')}
        </p>
      ) : null}
    </div>
  );
}
