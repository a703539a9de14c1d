// The results table. Its order is always the order its header shows; when a carrier answers late, its rows
// are inserted where they belong, and the row the clerk is reading (selected, or under the mouse, or the
// first one in view once scrolled) stays where it is on screen: the page scrolls by the height of what was
// inserted above it (issue #9). Nothing is ever reshuffled under the cursor.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Badge, Button, Table, type Column } from '../../components';
import { useLang, useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import { formatDays, formatMoney } from '../../lib/format';
import { effectiveDays, rateKey, type DeliveryType, type Rate, type Sort } from './logic';

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
}): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
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
      const first = [...el.querySelectorAll<HTMLElement>('tbody tr')].find(
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
      render: (r) => <span title={r.service_name}>{r.service_name}</span>,
      className: 'cell-service',
    },
    { key: 'delivery', header: t('col.delivery'), render: (r) => props.deliveryLabel(r.delivery_type) },
    {
      key: 'days',
      header: t('col.days'),
      sortable: true,
      render: (r) => formatDays(r.days_min, r.days_max, lang),
    },
    {
      key: 'price',
      header: t('col.price'),
      sortable: true,
      align: 'right',
      render: (r) => formatMoney(r.price_kopecks, lang),
      className: 'cell-price',
    },
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
