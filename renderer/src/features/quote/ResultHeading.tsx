// The line above a result: what it answers (route, weight, box, value), whether the form has moved on since
// (then the result is outdated until the next quote), and, for simulated carriers, the sandbox marker on
// the results panel itself (issue #9).
import type { ReactNode } from 'react';
import { placesOf, type QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { Badge } from '../../components';
import { useLang, useT, type Lang, type ScopedT } from '../../i18n';
import { formatDay } from '../../lib/dates';
import { formatDecimal, formatMoney, formatWeight } from '../../lib/format';

/** Boxes listed one by one up to this many kinds; more are said as a count and a total weight. */
const LISTED_BOXES = 3;

/**
 * "Москва → Казань · 1,2 кг, 30×20×10 см · ценность 1 500,50 ₽", or "… · ценность не указана" when none was
 * declared (issue #17: a missing value is said, not left out, so nobody reads it as forgotten by the app).
 * The clerk's quote (#21) adds its places («2 × 1,5 кг, 30×20×10 см + …», or «7 мест, всего 12 кг»), the
 * cash on delivery and a picked ship date.
 */
export function describeShipment(s: QuoteRequestInput, lang: Lang, t: ScopedT<'quote'>): string {
  const parts = [t('route', { from: s.from.city, to: s.to.city }), describeBoxes(s, lang, t)];
  parts.push(
    s.declared_value_kopecks
      ? t('result.value', { value: formatMoney(s.declared_value_kopecks, lang) })
      : t('quoteInput.result.valueNone'),
  );
  if (s.cod_kopecks) parts.push(t('quoteExt.result.cod', { value: formatMoney(s.cod_kopecks, lang) }));
  if (s.ship_date) parts.push(t('quoteExt.result.shipDate', { date: formatDay(s.ship_date, lang) }));
  return parts.join(' · ');
}

/** The boxes: «1,2 кг, 30×20×10 см», «2 × 1,5 кг, 30×20×10 см + 1,2 кг, 40×30×20 см», «7 мест, всего 12 кг». */
export function describeBoxes(
  s: Pick<QuoteRequestInput, 'parcel' | 'places'>,
  lang: Lang,
  t: ScopedT<'quote'>,
): string {
  const box = (p: { weight_grams: number; length_cm: number; width_cm: number; height_cm: number }): string =>
    t('result.parcel', {
      weight: formatWeight(p.weight_grams, lang),
      l: formatDecimal(p.length_cm, lang),
      w: formatDecimal(p.width_cm, lang),
      h: formatDecimal(p.height_cm, lang),
    });
  const kinds = s.places ?? (s.parcel ? [{ ...s.parcel, count: 1 }] : []);
  const all = placesOf({ parcel: s.parcel, places: s.places?.map((p) => ({ ...p, count: p.count ?? 1 })) });
  return kinds.length <= LISTED_BOXES
    ? kinds.map((p) => ((p.count ?? 1) > 1 ? `${p.count} × ${box(p)}` : box(p))).join(' + ')
    : t('quoteExt.result.places', {
        n: all.length,
        weight: formatWeight(
          all.reduce((sum, p) => sum + p.weight_grams, 0),
          lang,
        ),
      });
}

export function ResultHeading(props: {
  shipment: QuoteRequestInput | null;
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
