// «Из всех складов» (#20): one block per warehouse, each with its carriers' states as they answer, its
// cheapest price and quickest time, its options (the five cheapest first, the rest one click away) and what
// it could not quote. The origin the core names cheapest / fastest carries a badge in words, not a colour.
import { useState, type MouseEvent, type ReactNode } from 'react';
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { Badge, EmptyState, ErrorState, Table, type Column } from '../../components';
import { useLang, useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import { formatDays, formatMoney } from '../../lib/format';
import { rateKey, type DeliveryType, type Rate } from './logic';
import { NotRated } from './NotRated';
import { describeShipment } from './ResultHeading';
import type { OriginRun, OriginsRunState } from './origins-run';
import { StatusStrip } from './StatusStrip';
import { failedOf } from './unavailable';
import { bestOfOrigin, originMarks, type OriginMark } from './warehouses';

const FIRST_ROWS = 5;

export function OriginsPanel(props: {
  state: OriginsRunState;
  nameOf: CarrierNameOf;
  deliveryLabel: (d: DeliveryType) => string;
  sandbox: boolean;
}): ReactNode {
  const t = useT('warehouses');
  const tq = useT('quote');
  const { lang } = useLang();
  const { state } = props;
  const marks = state.result ? originMarks(state.result) : new Map<number, OriginMark>();
  const anyRates = state.origins.some((o) => o.run.order.length > 0);
  return (
    <div
      className={`results panel${props.sandbox ? ' results-sandbox' : ''}`}
      data-testid="origins"
      data-phase={state.phase}
    >
      {state.shipment ? (
        <div className={`result-head${props.sandbox ? ' result-head-sandbox' : ''}`}>
          <div className="result-for">
            {props.sandbox ? (
              <Badge tone="warn" title={tq('sandbox.panelText')}>
                {tq('sandbox.panel')}
              </Badge>
            ) : null}
            <span className="result-shipment" data-testid="origins-for">
              {describeOrigins(state.shipment, lang, tq, t('origins.title'))}
            </span>
            <span className="muted">· {t('origins.summary', { n: state.origins.length })}</span>
            {props.sandbox ? <span className="result-sandbox-text">{tq('sandbox.panelText')}</span> : null}
          </div>
        </div>
      ) : null}
      {state.phase === 'error' && !anyRates ? (
        <ErrorState error={state.error} title={t('origins.error')} />
      ) : state.phase === 'done' && !anyRates ? (
        <EmptyState title={t('origins.none')} data-testid="origins-none" />
      ) : null}
      {anyRates ? <OriginsSummary state={state} marks={marks} nameOf={props.nameOf} /> : null}
      <div className="origins">
        {state.origins.map((o) => (
          <OriginBlock
            key={o.warehouseId}
            origin={o}
            mark={marks.get(o.warehouseId) ?? { cheapest: false, fastest: false }}
            nameOf={props.nameOf}
            deliveryLabel={props.deliveryLabel}
            shipment={state.shipment}
          />
        ))}
      </div>
    </div>
  );
}

interface SummaryRow {
  origin: OriginRun;
  mark: OriginMark;
  best: ReturnType<typeof bestOfOrigin>;
}

/**
 * The answer at a glance, above the blocks: one line per warehouse with its lowest price and shortest time,
 * so the clerk compares origins without scrolling (at 1024×640 only one block fits on screen).
 */
function OriginsSummary(props: {
  state: OriginsRunState;
  marks: Map<number, OriginMark>;
  nameOf: CarrierNameOf;
}): ReactNode {
  const t = useT('warehouses');
  const { lang } = useLang();
  const rows: SummaryRow[] = props.state.origins.map((origin) => ({
    origin,
    mark: props.marks.get(origin.warehouseId) ?? { cheapest: false, fastest: false },
    best: bestOfOrigin(
      origin.run.order.map((k) => origin.run.rates.get(k)).filter((r): r is Rate => r !== undefined),
    ),
  }));
  const columns: Column<SummaryRow>[] = [
    {
      key: 'warehouse',
      header: t('origins.col.warehouse'),
      render: (r) => (
        <a href={`#origin-${r.origin.warehouseId}`} className="row-link" onClick={(e) => jumpTo(e, r.origin)}>
          {r.origin.name}
        </a>
      ),
    },
    {
      key: 'price',
      header: t('origins.col.price'),
      align: 'right',
      width: '130px',
      render: (r) => (r.best.cheapest ? formatMoney(r.best.cheapest.price_kopecks, lang) : '—'),
    },
    {
      key: 'priceBy',
      header: <span className="sr-only">{t('origins.col.priceBy')}</span>,
      className: 'muted',
      render: (r) =>
        r.best.cheapest ? props.nameOf(r.best.cheapest.carrier, r.best.cheapest.carrier_name) : '',
    },
    {
      key: 'days',
      header: t('origins.col.days'),
      width: '150px',
      render: (r) =>
        r.best.fastest ? (
          <>
            {formatDays(r.best.fastest.days_min, r.best.fastest.days_max, lang)}{' '}
            <span className="muted">{props.nameOf(r.best.fastest.carrier, r.best.fastest.carrier_name)}</span>
          </>
        ) : (
          '—'
        ),
    },
    {
      key: 'marks',
      header: <span className="sr-only">{t('origins.col.marks')}</span>,
      width: '260px',
      render: (r) => (
        <span className="badges">
          {r.mark.cheapest ? (
            <Badge tone="ok" title={t('origins.cheapestHint')}>
              {t('origins.cheapest')}
            </Badge>
          ) : null}
          {r.mark.fastest ? (
            <Badge tone="accent" title={t('origins.fastestHint')}>
              {t('origins.fastest')}
            </Badge>
          ) : null}
        </span>
      ),
    },
  ];
  return (
    <Table
      columns={columns}
      rows={rows}
      rowKey={(r) => String(r.origin.warehouseId)}
      caption={t('origins.title')}
      rowProps={(r) => ({ 'data-testid': 'origins-summary-row', 'data-warehouse': r.origin.name })}
      className="origins-summary"
      data-testid="origins-summary"
    />
  );
}

function jumpTo(e: MouseEvent<HTMLAnchorElement>, origin: OriginRun): void {
  // The hash is the app's router: scroll to the block instead of navigating.
  e.preventDefault();
  document.getElementById(`origin-${origin.warehouseId}`)?.scrollIntoView({ block: 'start' });
}

/** "Из всех складов → Казань · 1,2 кг, 30×20×10 см · ценность не указана". */
function describeOrigins(
  s: QuoteRequestInput,
  lang: 'ru' | 'en',
  tq: Parameters<typeof describeShipment>[2],
  title: string,
): string {
  const rest = describeShipment(s, lang, tq).split(' · ').slice(1);
  return [`${title} → ${s.to.city}`, ...rest].join(' · ');
}

function OriginBlock(props: {
  origin: OriginRun;
  mark: OriginMark;
  nameOf: CarrierNameOf;
  deliveryLabel: (d: DeliveryType) => string;
  shipment: QuoteRequestInput | null;
}): ReactNode {
  const t = useT('warehouses');
  const tq = useT('quote');
  const { lang } = useLang();
  const [all, setAll] = useState(false);
  const { origin, mark } = props;
  const run = origin.run;
  const rows = run.order.map((k) => run.rates.get(k)).filter((r): r is Rate => r !== undefined);
  const shown = all ? rows : rows.slice(0, FIRST_ROWS);
  const best = bestOfOrigin(rows);
  const headId = `origin-${origin.warehouseId}-name`;
  const columns: Column<Rate>[] = [
    { key: 'carrier', header: tq('col.carrier'), render: (r) => props.nameOf(r.carrier, r.carrier_name) },
    {
      key: 'service',
      header: tq('col.service'),
      className: 'cell-service',
      render: (r) => <span title={r.service_name}>{r.service_name}</span>,
    },
    {
      key: 'delivery',
      header: tq('col.delivery'),
      render: (r) => props.deliveryLabel(r.delivery_type),
      width: '110px',
    },
    {
      key: 'days',
      header: tq('col.days'),
      render: (r) => formatDays(r.days_min, r.days_max, lang),
      width: '100px',
    },
    {
      key: 'price',
      header: tq('col.price'),
      align: 'right',
      width: '130px',
      render: (r) => formatMoney(r.price_kopecks, lang),
    },
  ];
  return (
    <section
      className={`origin-block${mark.cheapest || mark.fastest ? ' origin-best' : ''}`}
      aria-labelledby={headId}
      id={`origin-${origin.warehouseId}`}
      data-testid="origin-block"
      data-warehouse={origin.name}
      data-cheapest={mark.cheapest ? 'true' : 'false'}
      data-fastest={mark.fastest ? 'true' : 'false'}
    >
      <div className="origin-head">
        <h3 className="origin-name" id={headId}>
          {origin.name}
        </h3>
        <span className="muted">{origin.place}</span>
        {mark.cheapest ? (
          <Badge tone="ok" title={t('origins.cheapestHint')} data-testid="origin-cheapest">
            {t('origins.cheapest')}
          </Badge>
        ) : null}
        {mark.fastest ? (
          <Badge tone="accent" title={t('origins.fastestHint')} data-testid="origin-fastest">
            {t('origins.fastest')}
          </Badge>
        ) : null}
        <span className="origin-figures">
          {best.cheapest ? (
            <span className="origin-price" data-testid="origin-price">
              {t('origins.best', { price: formatMoney(best.cheapest.price_kopecks, lang) })}
            </span>
          ) : null}
          {best.fastest ? (
            <span data-testid="origin-days">
              {t('origins.quickest', {
                days: formatDays(best.fastest.days_min, best.fastest.days_max, lang),
              })}
            </span>
          ) : null}
        </span>
      </div>
      <StatusStrip carriers={run.carriers} nameOf={(c) => props.nameOf(c)} />
      {rows.length > 0 ? (
        <>
          <Table
            columns={columns}
            rows={shown}
            rowKey={rateKey}
            caption={origin.name}
            rowProps={(r) => ({ 'data-testid': 'origin-rate', 'data-price': String(r.price_kopecks) })}
          />
          {rows.length > FIRST_ROWS ? (
            <button type="button" className="link-button origins-more" onClick={() => setAll((a) => !a)}>
              {all ? t('origins.less') : t('origins.more', { n: rows.length - FIRST_ROWS })}
            </button>
          ) : null}
        </>
      ) : run.phase === 'running' ? (
        <p className="muted">{t('origins.waiting')}</p>
      ) : (
        <p className="muted" data-testid="origin-no-rates">
          {run.phase === 'error' ? t('origins.failed') : t('origins.noRates')}
        </p>
      )}
      <NotRated failed={failedOf(run.carriers)} shipment={props.shipment} nameOf={(c) => props.nameOf(c)} />
    </section>
  );
}
