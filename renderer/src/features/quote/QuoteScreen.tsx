// The home screen: the quote form and the streaming comparison (ux.md "Quote").
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { CarrierView, DeskQuoteResult } from '../../../../core/desk/contract';
import { call, hasDeskApi } from '../../api/client';
import { useDeskEvent } from '../../api/hooks';
import { navigate } from '../../app/router';
import {
  Badge,
  Button,
  Checkbox,
  copyText,
  EmptyState,
  ErrorState,
  Input,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDays, formatDecimal, formatMoney } from '../../lib/format';
import { CarrierPicker } from './CarrierPicker';
import { CityField } from './CityField';
import {
  bestOf,
  buildShipment,
  DELIVERY_FILTERS,
  effectiveDays,
  EMPTY_DRAFT,
  formatSort,
  matchesDelivery,
  needsResort,
  nextSort,
  paretoFront,
  parseSort,
  rateAsText,
  rateKey,
  restoreDraft,
  swapPlaces,
  type DeliveryFilter,
  type DeliveryType,
  type DraftField,
  type FormErrors,
  type QuoteDraft,
  type Rate,
  type Sort,
  type SortKey,
} from './logic';
import { PriceChart } from './PriceChart';
import { parseBoxPresets, presetMatching, type BoxPreset } from './presets';
import { IDLE, runReducer } from './run';
import { StatusStrip } from './StatusStrip';

const DRAFT_KEY = 'ratedesk.quote.draft';
const SORT_KEY = 'ratedesk.quote.sort';
const VIEW_KEY = 'ratedesk.quote.view';
/**
 * When a whole answer arrives within this time of its first row, it is sorted once on completion: nobody
 * has started reading yet, so nothing "jumps". Anything slower only appends, and re-sorting is the user's.
 */
const SETTLE_MS = 400;

function readJson(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the form still works, it just will not survive a restart.
  }
}

interface ViewPrefs {
  pareto: boolean;
  chart: boolean;
}

function readView(): ViewPrefs {
  const raw = readJson(VIEW_KEY) as Partial<ViewPrefs> | null;
  return { pareto: raw?.pareto === true, chart: raw?.chart !== false };
}

function newQuoteKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `q-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

const FIELD_ORDER: DraftField[] = [
  'fromCity',
  'fromPostal',
  'toCity',
  'toPostal',
  'weight',
  'length',
  'width',
  'height',
  'value',
];
const FIELD_IDS: Record<DraftField, string> = {
  fromCity: 'from-city',
  fromPostal: 'from-postal',
  toCity: 'to-city',
  toPostal: 'to-postal',
  weight: 'weight',
  length: 'length',
  width: 'width',
  height: 'height',
  value: 'declared-value',
};

export function QuoteScreen(): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
  const toast = useToast();

  const storedDraft = useRef(readJson(DRAFT_KEY));
  const [draft, setDraft] = useState<QuoteDraft>(() => restoreDraft(storedDraft.current));
  const [showErrors, setShowErrors] = useState(false);
  const [carriers, setCarriers] = useState<CarrierView[]>([]);
  const [presets, setPresets] = useState<BoxPreset[]>([]);
  const [run, dispatch] = useReducer(runReducer, IDLE);
  const [sort, setSort] = useState<Sort>(() => parseSort(localStorage.getItem(SORT_KEY)));
  const [delivery, setDelivery] = useState<DeliveryFilter>('all');
  const [view, setView] = useState<ViewPrefs>(readView);
  const [selected, setSelected] = useState<string | null>(null);

  const fromRef = useRef<HTMLInputElement>(null);
  const sortRef = useRef(sort);
  sortRef.current = sort;
  const firstRowAt = useRef<number | null>(null);
  const userMoved = useRef(false);

  // ---- start-up: carriers (names, filter), box presets and default carriers from settings ----
  useEffect(() => {
    fromRef.current?.focus();
    if (!hasDeskApi()) return;
    call((api) => api.carriers.list())
      .then(setCarriers)
      .catch(() => {});
    call((api) => api.settings.get())
      .then((settings) => {
        const value = (name: string): string | undefined => settings.find((s) => s.name === name)?.value;
        setPresets(parseBoxPresets(value('ui.box_presets') ?? ''));
        const defaults = (value('ui.default_carriers') ?? '').split(',').filter(Boolean);
        if (storedDraft.current === null && defaults.length > 0)
          setDraft((d) => ({ ...d, carriers: defaults }));
      })
      .catch(() => {});
  }, []);

  useEffect(() => writeJson(DRAFT_KEY, draft), [draft]);
  useEffect(() => writeJson(VIEW_KEY, view), [view]);

  const built = useMemo(() => buildShipment(draft), [draft]);
  const errors: FormErrors = showErrors && !built.ok ? built.errors : {};

  const nameOf = useCallback(
    (code: string): string =>
      carriers.find((c) => c.code === code)?.name ??
      [...run.rates.values()].find((r) => r.carrier === code)?.carrier_name ??
      code,
    [carriers, run.rates],
  );

  const update = (patch: Partial<QuoteDraft>): void => setDraft((d) => ({ ...d, ...patch }));

  // ---- streaming ----
  useDeskEvent('quote:progress', (e) =>
    dispatch({ type: 'progress', key: e.quoteKey, progress: e.progress, sort: sortRef.current }),
  );

  async function submit(): Promise<void> {
    if (!built.ok) {
      setShowErrors(true);
      const first = FIELD_ORDER.find((f) => built.errors[f]);
      if (first) document.getElementById(FIELD_IDS[first])?.focus();
      return;
    }
    setShowErrors(false);
    const key = newQuoteKey();
    const shipment = built.shipment;
    const targets = shipment.carriers ?? carriers.filter((c) => c.enabled).map((c) => c.code);
    performance.clearMarks('ratedesk:enter');
    performance.clearMeasures('ratedesk:first-rate');
    performance.mark('ratedesk:enter');
    firstRowAt.current = null;
    userMoved.current = false;
    setSelected(null);
    dispatch({
      type: 'start',
      key,
      carriers: targets,
      route: { from: shipment.from.city, to: shipment.to.city },
    });
    let result: DeskQuoteResult;
    try {
      result = await call((api) => api.quote.run({ quoteKey: key, shipment }));
    } catch (error) {
      dispatch({ type: 'failed', key, error });
      return;
    }
    const settle =
      !userMoved.current &&
      (firstRowAt.current === null || performance.now() - firstRowAt.current < SETTLE_MS);
    dispatch({ type: 'done', key, result, sort: sortRef.current, settle });
  }

  // Enter → first row on screen: measured with the User Timing API (the e2e run reads it).
  useLayoutEffect(() => {
    if (run.order.length > 0 && firstRowAt.current === null && run.key !== null) {
      firstRowAt.current = performance.now();
      try {
        performance.measure('ratedesk:first-rate', 'ratedesk:enter');
      } catch {
        // No enter mark (a re-run from elsewhere): nothing to measure.
      }
    }
  }, [run.order.length, run.key]);

  // ---- the table ----
  const rows = useMemo(
    () => run.order.map((k) => run.rates.get(k)).filter((r): r is Rate => r !== undefined),
    [run.order, run.rates],
  );
  const badges = useMemo(() => bestOf(rows), [rows]);
  const visible = useMemo(() => {
    const typed = rows.filter((r) => matchesDelivery(r, delivery));
    if (!view.pareto) return typed;
    const keep = new Set(paretoFront(typed));
    return typed.filter((r) => keep.has(r));
  }, [rows, delivery, view.pareto]);
  const resortNeeded = run.phase !== 'idle' && rows.length > 1 && needsResort(run.order, run.rates, sort);
  const presentTypes = useMemo(() => new Set(rows.map((r) => r.delivery_type)), [rows]);

  const deliveryLabel = useCallback((d: DeliveryType): string => t(`delivery.${d}`), [t]);

  function onSort(key: string): void {
    const next = nextSort(sort, key as SortKey);
    setSort(next);
    localStorage.setItem(SORT_KEY, formatSort(next));
    dispatch({ type: 'resort', sort: next });
  }

  const copySelected = useCallback(async (): Promise<void> => {
    const r = selected ? run.rates.get(selected) : undefined;
    if (!r) return;
    const route = run.route ? t('route', run.route) : undefined;
    const ok = await copyText(rateAsText(r, deliveryLabel, lang, route));
    toast(ok ? t('copied') : t('common.copyFailed'), ok ? 'info' : 'error');
  }, [selected, run.rates, run.route, deliveryLabel, lang, t, toast]);

  function clearAll(): void {
    setDraft({ ...EMPTY_DRAFT, carriers: draft.carriers });
    setShowErrors(false);
    setSelected(null);
    dispatch({ type: 'clear' });
    fromRef.current?.focus();
  }

  // ---- keyboard: Ctrl+K, Esc, ↑/↓, Ctrl+C ----
  const keyState = useRef({ visible, selected, copySelected, clearAll });
  keyState.current = { visible, selected, copySelected, clearAll };
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || document.querySelector('dialog[open]')) return;
      const target = e.target as HTMLElement | null;
      const k = keyState.current;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        fromRef.current?.focus();
        fromRef.current?.select();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        k.clearAll();
      } else if (
        (e.key === 'ArrowDown' || e.key === 'ArrowUp') &&
        !e.altKey &&
        !e.ctrlKey &&
        target?.tagName !== 'SELECT' &&
        target?.tagName !== 'TEXTAREA'
      ) {
        if (k.visible.length === 0) return;
        e.preventDefault();
        userMoved.current = true;
        const i = k.visible.findIndex((r) => rateKey(r) === k.selected);
        const next = e.key === 'ArrowDown' ? Math.min(i + 1, k.visible.length - 1) : i <= 0 ? 0 : i - 1;
        const key = rateKey(k.visible[next]!);
        setSelected(key);
        document.querySelector(`tr[data-key="${CSS.escape(key)}"]`)?.scrollIntoView({ block: 'nearest' });
      } else if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'c' && k.selected) {
        // Copying text the user selected stays the browser's job.
        const input = target as HTMLInputElement | null;
        const fieldSelection =
          input && 'selectionStart' in input && input.selectionStart !== input.selectionEnd;
        if (fieldSelection || (window.getSelection()?.toString() ?? '') !== '') return;
        e.preventDefault();
        void k.copySelected();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // ---- errors as words ----
  const fieldError = (f: DraftField): string | undefined => {
    const e = errors[f];
    if (!e) return undefined;
    if (f === 'fromCity' || f === 'toCity') return t('err.city');
    if (f === 'fromPostal' || f === 'toPostal') return t('err.postal');
    if (f === 'weight') return t('err.weight');
    if (f === 'value') return t('err.value');
    return t('err.dim');
  };
  const dimError = fieldError('length') ?? fieldError('width') ?? fieldError('height');

  const currentPreset = presetMatching(presets, draft);

  const columns: Column<Rate>[] = [
    { key: 'carrier', header: t('col.carrier'), render: (r) => r.carrier_name },
    {
      key: 'service',
      header: t('col.service'),
      render: (r) => <span title={r.service_name}>{r.service_name}</span>,
      className: 'cell-service',
    },
    { key: 'delivery', header: t('col.delivery'), render: (r) => deliveryLabel(r.delivery_type) },
    {
      key: 'days',
      header: t('col.days'),
      sortable: true,
      render: (r) => formatDays(r.days_min, r.days_max, lang),
      width: '110px',
    },
    {
      key: 'price',
      header: t('col.price'),
      sortable: true,
      align: 'right',
      render: (r) => formatMoney(r.price_kopecks, lang),
      width: '120px',
    },
    {
      key: 'badges',
      header: <span className="sr-only">{t('col.badges')}</span>,
      className: 'cell-badges',
      render: (r) => (
        <span className="badges">
          {badges.cheapest.has(rateKey(r)) ? (
            <Badge tone="ok" title={t('badge.cheapestHint')} data-testid="badge-cheapest">
              {t('badge.cheapest')}
            </Badge>
          ) : null}
          {badges.fastest.has(rateKey(r)) ? (
            <Badge tone="accent" title={t('badge.fastestHint')} data-testid="badge-fastest">
              {t('badge.fastest')}
            </Badge>
          ) : null}
        </span>
      ),
    },
  ];

  const unavailable = run.carriers.filter((c) => c.state === 'unavailable');
  const running = run.phase === 'running';

  return (
    <section className="screen quote-screen" aria-labelledby="quote-title">
      <h1 id="quote-title" className="sr-only">
        {t('title')}
      </h1>
      <form
        className="quote-form panel"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        data-testid="quote-form"
      >
        <div className="qf-row">
          <CityField
            name="from"
            label={t('from')}
            placeholder={t('fromPlaceholder')}
            postalLabel={t('postal')}
            city={draft.fromCity}
            postal={draft.fromPostal}
            onChange={({ city, postal }) => update({ fromCity: city, fromPostal: postal })}
            cityError={fieldError('fromCity')}
            postalError={fieldError('fromPostal')}
            inputRef={fromRef}
          />
          <CityField
            name="to"
            label={t('to')}
            placeholder={t('toPlaceholder')}
            postalLabel={t('postal')}
            city={draft.toCity}
            postal={draft.toPostal}
            onChange={({ city, postal }) => update({ toCity: city, toPostal: postal })}
            cityError={fieldError('toCity')}
            postalError={fieldError('toPostal')}
          />
          <div className="field swap-field">
            <span className="field-label" aria-hidden="true">
              &nbsp;
            </span>
            <Button
              variant="ghost"
              className="swap-button"
              onClick={() => setDraft(swapPlaces)}
              aria-label={t('swap')}
              title={t('swap')}
              data-testid="swap"
            >
              ⇄
            </Button>
          </div>
        </div>
        <div className="qf-row">
          <div className="field weight-field">
            <label htmlFor="weight">{t('weight')}</label>
            <div className="with-unit">
              <Input
                id="weight"
                inputMode="decimal"
                value={draft.weight}
                placeholder="1,2"
                invalid={Boolean(fieldError('weight'))}
                onChange={(e) => update({ weight: e.currentTarget.value })}
                data-testid="weight"
              />
              <span className="unit">{t('kg')}</span>
            </div>
            {fieldError('weight') ? <div className="field-error">{fieldError('weight')}</div> : null}
          </div>
          <div className="field dims-field" role="group" aria-labelledby="dims-label">
            <span className="field-label" id="dims-label">
              {t('dims')}
            </span>
            <div className="with-unit">
              {(['length', 'width', 'height'] as const).map((side, i) => (
                <span key={side} className="dim">
                  {i > 0 ? (
                    <span className="times" aria-hidden="true">
                      ×
                    </span>
                  ) : null}
                  <Input
                    id={side}
                    inputMode="decimal"
                    aria-label={t(side)}
                    value={draft[side]}
                    invalid={Boolean(fieldError(side))}
                    onChange={(e) => update({ [side]: e.currentTarget.value })}
                    data-testid={side}
                  />
                </span>
              ))}
              <span className="unit">{t('cm')}</span>
            </div>
            {dimError ? <div className="field-error">{dimError}</div> : null}
          </div>
          <div className="field box-field">
            <label htmlFor="box-preset">{t('box')}</label>
            <select
              id="box-preset"
              className="select"
              value={currentPreset?.name ?? ''}
              onChange={(e) => {
                const p = presets.find((x) => x.name === e.currentTarget.value);
                if (p) {
                  update({
                    length: formatDecimal(p.length_cm, lang),
                    width: formatDecimal(p.width_cm, lang),
                    height: formatDecimal(p.height_cm, lang),
                  });
                }
              }}
              data-testid="box-preset"
            >
              <option value="">{t('boxCustom')}</option>
              {presets.map((p) => (
                <option key={p.name} value={p.name}>
                  {`${p.name} ${formatDecimal(p.length_cm, lang)}×${formatDecimal(p.width_cm, lang)}×${formatDecimal(p.height_cm, lang)}`}
                </option>
              ))}
            </select>
          </div>
          <div className="field value-field">
            <label htmlFor="declared-value">{t('value')}</label>
            <div className="with-unit">
              <Input
                id="declared-value"
                inputMode="decimal"
                value={draft.value}
                placeholder="0"
                invalid={Boolean(fieldError('value'))}
                onChange={(e) => update({ value: e.currentTarget.value })}
                data-testid="declared-value"
              />
              <span className="unit">{t('rub')}</span>
            </div>
            {fieldError('value') ? <div className="field-error">{fieldError('value')}</div> : null}
          </div>
        </div>
        <div className="qf-row qf-row-end">
          <CarrierPicker
            carriers={carriers}
            value={draft.carriers}
            onChange={(c) => update({ carriers: c })}
          />
          <span className="spacer" />
          <Button type="submit" variant="primary" kbd="⏎" busy={running} data-testid="submit">
            {running ? t('running') : t('submit')}
          </Button>
        </div>
      </form>

      <div className="results panel" data-testid="results" data-phase={run.phase}>
        <StatusStrip carriers={run.carriers} nameOf={nameOf} />
        {rows.length > 0 ? (
          <div className="results-toolbar">
            <span className="field-label">{t('filter.type')}</span>
            <div
              className="segmented"
              role="group"
              aria-label={t('filter.type')}
              data-testid="delivery-filter"
            >
              {DELIVERY_FILTERS.map((f) => (
                <button
                  key={f}
                  type="button"
                  aria-pressed={delivery === f}
                  disabled={f !== 'all' && !presentTypes.has(f) && delivery !== f}
                  onClick={() => setDelivery(f)}
                  data-filter={f}
                >
                  {f === 'all' ? t('filter.all') : deliveryLabel(f)}
                </button>
              ))}
            </div>
            <Checkbox
              checked={view.pareto}
              onChange={(pareto) => setView((v) => ({ ...v, pareto }))}
              data-testid="pareto"
            >
              <span title={t('paretoHint')}>{t('pareto')}</span>
            </Checkbox>
            <span className="spacer" />
            {resortNeeded ? (
              <Button
                size="sm"
                onClick={() => dispatch({ type: 'resort', sort })}
                title={t('resortHint')}
                data-testid="resort"
              >
                ↻ {t('resort')} {t(sort.key === 'price' ? 'sort.price' : 'sort.days')}
              </Button>
            ) : null}
            <span className="muted" data-testid="rows-summary">
              {t('summary.rows', { shown: visible.length, total: rows.length })}
            </span>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setView((v) => ({ ...v, chart: !v.chart }))}
              aria-pressed={view.chart}
              data-testid="chart-toggle"
            >
              {view.chart ? t('chartHide') : t('chart')}
            </Button>
          </div>
        ) : null}

        {run.phase === 'idle' ? (
          <EmptyState title={t('empty.title')} data-testid="quote-empty">
            <p>{t('empty.body')}</p>
            <p className="muted">{t('empty.hint')}</p>
          </EmptyState>
        ) : run.phase === 'error' && rows.length === 0 ? (
          <ErrorState error={run.error} title={t('error.title')} onRetry={() => void submit()} />
        ) : rows.length === 0 && running ? (
          <LoadingState>{t('running')}</LoadingState>
        ) : rows.length === 0 ? (
          <EmptyState title={t('noRates.title')} data-testid="no-rates">
            <p>{t('noRates.body')}</p>
          </EmptyState>
        ) : (
          <div className={`results-body${view.chart ? ' with-chart' : ''}`}>
            {visible.length === 0 ? (
              <EmptyState title={t('noMatch.title')}>
                <p>{t('noMatch.body')}</p>
              </EmptyState>
            ) : (
              <Table
                columns={columns}
                rows={visible}
                rowKey={rateKey}
                caption={t('title')}
                sort={sort}
                onSort={onSort}
                selectedKey={selected}
                onRowClick={(r) => {
                  userMoved.current = true;
                  setSelected(rateKey(r));
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
            )}
            {view.chart ? (
              <PriceChart
                rates={visible}
                selectedKey={selected}
                cheapest={badges.cheapest}
                fastest={badges.fastest}
                onSelect={(k) => {
                  userMoved.current = true;
                  setSelected(k);
                }}
              />
            ) : null}
          </div>
        )}

        {unavailable.length > 0 ? (
          <p className="not-rated" data-testid="not-rated">
            <strong>{t('notRated')}:</strong>{' '}
            {unavailable.map((c, i) => (
              <span key={c.code} data-carrier={c.code}>
                {i > 0 ? '; ' : ''}
                {nameOf(c.code)} — {c.kind ? t(`reason.${c.kind}`) : ''}
                {c.kind === 'not_configured' || c.kind === 'disabled' ? (
                  <>
                    {' '}
                    <a href="#/carriers" onClick={(e) => (e.preventDefault(), navigate('carriers'))}>
                      ({t(`reason.fix.${c.kind}`)})
                    </a>
                  </>
                ) : null}
              </span>
            ))}
          </p>
        ) : null}
        {selected && rows.length > 0 ? <p className="muted copy-hint">{t('copyHint')}</p> : null}
      </div>
    </section>
  );
}
