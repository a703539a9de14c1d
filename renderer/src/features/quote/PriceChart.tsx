// Price against transit days as a small scatter plot in inline SVG: each option a dot, the Pareto front
// joined by a line, the selected option ringed. Options without days are left out (said below the chart).
import type { ReactNode } from 'react';
import { useLang, useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import { formatDays, formatMoney } from '../../lib/format';
import { effectiveDays, paretoFront, rateKey, type Rate } from './logic';
import { serviceLabel } from './service-label';

const W = 300;
const H = 190;
const PAD = { left: 64, right: 12, top: 12, bottom: 30 };

function niceStep(range: number, ticks: number): number {
  const raw = range / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const n = raw / pow;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * pow;
}

export function PriceChart(props: {
  rates: readonly Rate[];
  selectedKey: string | null;
  cheapest: ReadonlySet<string>;
  fastest: ReadonlySet<string>;
  nameOf: CarrierNameOf;
  onSelect: (key: string) => void;
}): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
  const points = props.rates.filter((r) => effectiveDays(r) !== null);
  if (points.length === 0) {
    return <p className="muted chart-empty">{t('chartNoDays')}</p>;
  }
  const days = points.map((r) => effectiveDays(r)!);
  const prices = points.map((r) => r.price_kopecks);
  const dMin = Math.max(0, Math.min(...days) - 1);
  const dMax = Math.max(...days) + 1;
  const pLo = Math.min(...prices);
  const pHi = Math.max(...prices);
  const pStep = niceStep(Math.max(pHi - pLo, 10000), 3);
  const pMin = Math.max(0, Math.floor(pLo / pStep) * pStep);
  const pMax = Math.max(Math.ceil(pHi / pStep) * pStep, pMin + pStep);
  const x = (d: number): number => PAD.left + ((d - dMin) / (dMax - dMin)) * (W - PAD.left - PAD.right);
  const y = (p: number): number => H - PAD.bottom - ((p - pMin) / (pMax - pMin)) * (H - PAD.top - PAD.bottom);
  const dStep = Math.max(1, Math.ceil((dMax - dMin) / 6));
  const dTicks: number[] = [];
  for (let d = Math.ceil(dMin); d <= dMax; d += dStep) dTicks.push(d);
  const pTicks: number[] = [];
  for (let p = pMin; p <= pMax + 1; p += pStep) pTicks.push(p);
  const front = paretoFront(points).sort(
    (a, b) => effectiveDays(a)! - effectiveDays(b)! || a.price_kopecks - b.price_kopecks,
  );

  return (
    <figure className="chart" data-testid="price-chart">
      <figcaption className="chart-title">{t('chartTitle')}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={t('chartTitle')}>
        {pTicks.map((p) => (
          <g key={`p${p}`}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(p)} y2={y(p)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(p) + 4} textAnchor="end" className="chart-label">
              {formatMoney(p, lang).replace(/[,.]00(?=\u00a0₽)/, '')}
            </text>
          </g>
        ))}
        {dTicks.map((d) => (
          <text key={`d${d}`} x={x(d)} y={H - PAD.bottom + 16} textAnchor="middle" className="chart-label">
            {d}
          </text>
        ))}
        <text x={W - PAD.right} y={H - 2} textAnchor="end" className="chart-label">
          {t('chartDays')}
        </text>
        <line
          x1={PAD.left}
          x2={W - PAD.right}
          y1={H - PAD.bottom}
          y2={H - PAD.bottom}
          className="chart-axis"
        />
        {front.length > 1 ? (
          <polyline
            className="chart-front"
            points={front.map((r) => `${x(effectiveDays(r)!)},${y(r.price_kopecks)}`).join(' ')}
          />
        ) : null}
        {points.map((r) => {
          const key = rateKey(r);
          const selected = key === props.selectedKey;
          const best = props.cheapest.has(key) || props.fastest.has(key);
          return (
            <g key={key} className="chart-point" onClick={() => props.onSelect(key)} data-key={key}>
              <title>
                {`${props.nameOf(r.carrier, r.carrier_name)} — ${serviceLabel(r)}: ${formatMoney(r.price_kopecks, lang)}, ${formatDays(r.days_min, r.days_max, lang)}`}
              </title>
              <circle
                cx={x(effectiveDays(r)!)}
                cy={y(r.price_kopecks)}
                r={selected ? 6 : 4}
                className={`chart-dot${best ? ' chart-dot-best' : ''}${selected ? ' chart-dot-selected' : ''}`}
              />
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
