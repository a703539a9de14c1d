// The results table. Its order is always the order its header shows; when a carrier answers late, its rows
// are inserted where they belong, and the row the clerk is reading (selected, or under the mouse, or the
// first one in view once scrolled) stays where it is on screen: the page scrolls by the height of what was
// inserted above it (issue #9). Nothing is ever reshuffled under the cursor.
// The clerk's quote (#21) adds the fee columns, the days' kind and dates, the customer's price, and under a
// pickup-point rate its points (PointsPanel) or the point chosen.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { PickupPoint } from '../../../../core/contract/points';
import { Badge, Button, Table, type Column } from '../../components';
import { useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import type { QuoteAsk } from './draft';
import { effectiveDays, rateKey, type DeliveryType, type Rate, type Sort } from './logic';
import { hasPoints } from './points';
import { ChosenPoint, PointsPanel } from './PointsPanel';
import type { FeeKind } from './rate-extras';
import { CustomerCell, DaysCell, FeeCell, FeeHeader, PriceCell, ServiceCell } from './RateCells';

/** The clerk's quote's parts of the table (#21). */
export interface RateExtras {
  /** Fee columns to show (asked for, or given by some rate). */
  fees: readonly FeeKind[];
  /** Show the customer's price beside the carrier's. */
  customer: boolean;
  /** The shipment the rates answer (points are searched for its boxes and COD). */
  shipment: QuoteAsk | null;
  points: Readonly<Record<string, PickupPoint>>;
  onChoosePoint: (rate: string, point: PickupPoint | null) => void;
}

interface Anchor {
  key: string;
  /** The row's top in the scroller's content (independent of the scroll position). */
  top: number;
  /** Keys shown at the time, in order. */
  keys: string[];
}

/** The page's one scroller (.main); the document's where the app runs without the shell. */
function scrollerOf(el: Element): HTMLElement {
  return (el.closest('.main') as HTMLElement | null) ?? (document.scrollingElement as HTMLElement);
}

function contentTop(row: Element, scroller: HTMLElement): number {
  return row.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

function rowOf(root: Element, key: string): HTMLElement | null {
  return root.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(key)}"]`);
}

/** True when `next` is `prev` with rows added (none removed, the old ones in the same order). */
function onlyInserted(prev: readonly string[], next: readonly string[]): boolean {
  if (next.length <= prev.length) return false;
  let i = 0;
  for (const k of next) if (k === prev[i]) i++;
  return i === prev.length;
}

export function RatesTable(props: {
  rows: readonly Rate[];
  sort: Sort;
  onSort: (key: string) => void;
  selected: string | null;
  onSelect: (key: string) => void;
  cheapest: ReadonlySet<string>;
  fastest: ReadonlySet<string>;
  deliveryLabel: (d: DeliveryType) => string;
  nameOf: CarrierNameOf;
  caption: string;
  extras: RateExtras;
}): ReactNode {
  const t = useT('quote');
  const tx = useT('quoteExt');
  const { extras } = props;
  /** Rates whose points list is open. */
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string, on: boolean): void =>
    setOpen((o) => {
      const next = new Set(o);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const root = useRef<HTMLDivElement>(null);
  const spacer = useRef<HTMLDivElement>(null);
  const hovered = useRef<string | null>(null);
  const anchor = useRef<Anchor | null>(null);
  const [addedAbove, setAddedAbove] = useState(0);
  const keys = props.rows.map(rateKey);
  const keysText = keys.join('\n');

  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    const scroller = scrollerOf(el);
    const prev = anchor.current;
    if (keys.length === 0) {
      if (spacer.current) spacer.current.style.height = '0px';
      setAddedAbove(0);
    }
    const row = prev ? rowOf(el, prev.key) : null;
    if (prev && row && onlyInserted(prev.keys, keys)) {
      const delta = contentTop(row, scroller) - prev.top;
      if (delta > 0) {
        // Content fitting in the window cannot scroll: a spacer below the results makes room.
        const room = scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop;
        if (delta > room && spacer.current) {
          const had = parseFloat(spacer.current.style.height || '0');
          spacer.current.style.height = `${had + delta - room}px`;
        }
        scroller.scrollTop += delta;
        // Rows that went in above the top of the window are out of sight: say so, with a way up.
        const above = keys.indexOf(prev.key) - prev.keys.indexOf(prev.key);
        const hidden = el.getBoundingClientRect().top < scroller.getBoundingClientRect().top;
        if (above > 0 && hidden) setAddedAbove((n) => n + above);
      }
    }
    // The row being read now: selected, else under the mouse, else the first in view once scrolled past.
    let key = props.selected ?? hovered.current;
    if (!key || !keys.includes(key)) {
      const top = scroller.getBoundingClientRect().top;
      const first = [...el.querySelectorAll<HTMLElement>('tbody tr[data-key]')].find(
        (r) => r.getBoundingClientRect().top >= top,
      );
      const scrolledPast = el.getBoundingClientRect().top < top;
      key = scrolledPast ? (first?.dataset['key'] ?? null) : null;
    }
    const anchorRow = key ? rowOf(el, key) : null;
    anchor.current = key && anchorRow ? { key, top: contentTop(anchorRow, scroller), keys } : null;
    // keysText stands for `keys` (a new array every render); the selection and sort are read, not watched.
  }, [keysText, props.selected]);

  const columns: Column<Rate>[] = [
    {
      key: 'carrier',
      header: t('col.carrier'),
      render: (r) => props.nameOf(r.carrier, r.carrier_name),
      className: 'cell-carrier',
    },
    {
      key: 'service',
      header: t('col.service'),
      render: (r) => <ServiceCell rate={r} />,
      className: 'cell-service',
    },
    {
      key: 'delivery',
      header: t('col.delivery'),
      render: (r) => {
        const key = rateKey(r);
        const label = props.deliveryLabel(r.delivery_type);
        if (!hasPoints(r) || !extras.shipment) return label;
        const isOpen = open.has(key);
        return (
          <>
            <span className="cell-line">{label}</span>
            <button
              type="button"
              className="link-button cell-sub points-toggle"
              aria-expanded={isOpen}
              title={tx('points.openHint')}
              onClick={(e) => {
                e.stopPropagation();
                props.onSelect(key);
                toggle(key, !isOpen);
              }}
              data-testid="points-toggle"
            >
              {`${tx('points.open')} ${isOpen ? '▴' : '▾'}`}
            </button>
          </>
        );
      },
    },
    {
      key: 'days',
      header: t('col.days'),
      sortable: true,
      render: (r) => <DaysCell rate={r} />,
    },
    ...extras.fees.map((kind): Column<Rate> => ({
      key: `fee-${kind}`,
      header: <FeeHeader kind={kind} />,
      align: 'right',
      render: (r) => <FeeCell rate={r} kind={kind} />,
      className: 'cell-fee',
    })),
    {
      key: 'price',
      header: t('col.price'),
      sortable: true,
      align: 'right',
      render: (r) => <PriceCell rate={r} />,
      className: 'cell-price',
    },
    ...(extras.customer
      ? [
          {
            key: 'customer',
            header: <span title={tx('customerHint')}>{tx('col.customer')}</span>,
            align: 'right',
            render: (r) => <CustomerCell rate={r} />,
            className: 'cell-customer',
          } satisfies Column<Rate>,
        ]
      : []),
    {
      key: 'badges',
      header: <span className="sr-only">{t('col.badges')}</span>,
      className: 'cell-badges',
      render: (r) => (
        <span className="badges">
          {props.cheapest.has(rateKey(r)) ? (
            <Badge tone="ok" title={t('badge.cheapestHint')} data-testid="badge-cheapest">
              {t('badge.cheapest')}
            </Badge>
          ) : null}
          {props.fastest.has(rateKey(r)) ? (
            <Badge tone="accent" title={t('badge.fastestHint')} data-testid="badge-fastest">
              {t('badge.fastest')}
            </Badge>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <div
      ref={root}
      className="rates"
      onMouseOver={(e) => {
        const tr = (e.target as Element).closest?.('tbody tr') as HTMLElement | null;
        hovered.current = tr?.dataset['key'] ?? null;
      }}
      onMouseLeave={() => {
        hovered.current = null;
      }}
    >
      {addedAbove > 0 ? (
        <div className="added-above">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setAddedAbove(0);
              root.current?.scrollIntoView({ block: 'start' });
            }}
            data-testid="added-above"
          >
            {t('newAbove', { n: addedAbove })}
          </Button>
        </div>
      ) : null}
      <Table
        columns={columns}
        rows={props.rows}
        rowKey={rateKey}
        caption={props.caption}
        sort={props.sort}
        onSort={props.onSort}
        selectedKey={props.selected}
        onRowClick={(r) => props.onSelect(rateKey(r))}
        rowAfter={(r) => {
          const key = rateKey(r);
          const chosen = extras.points[key] ?? null;
          if (open.has(key) && extras.shipment) {
            return (
              <PointsPanel
                carrier={r.carrier}
                carrierName={props.nameOf(r.carrier, r.carrier_name)}
                shipment={extras.shipment}
                chosen={chosen}
                onChoose={(p) => extras.onChoosePoint(key, p)}
                onClose={() => {
                  toggle(key, false);
                  document
                    .querySelector<HTMLElement>(`tr[data-key="${CSS.escape(key)}"] .points-toggle`)
                    ?.focus();
                }}
              />
            );
          }
          return chosen ? <ChosenPoint point={chosen} onChange={() => toggle(key, true)} /> : null;
        }}
        rowProps={(r) => ({
          'data-testid': 'rate-row',
          'data-carrier': r.carrier,
          'data-price': String(r.price_kopecks),
          'data-days': String(effectiveDays(r) ?? ''),
          'data-delivery': r.delivery_type,
        })}
        data-testid="rates-table"
        className="rates-table"
      />
      <div ref={spacer} className="rates-spacer" aria-hidden="true" />
    </div>
  );
}
