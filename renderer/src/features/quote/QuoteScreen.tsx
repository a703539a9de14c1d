// The home screen (ux.md "Quote"): the form, and the result of the last quote with every carrier's state.
// The run itself lives in QuoteSessionProvider (session.tsx), so it survives a visit to another screen;
// this file wires the form, the results and the keyboard together. Just over 400 lines since the warehouse
// origin (#20) joined the form: the wiring is one component's, and the origin's own logic already lives in
// useOrigin.ts; the keyboard wiring is the next to move out if it grows.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { hasDeskApi } from '../../api/client';
import { loadQuoteCarriers } from '../../api/quote-carriers';
import { useCarrierNamer } from '../../api/useCarrierNames';
import { useApp } from '../../app/context';
import { useToast } from '../../components';
import { useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import { readJson, writeJson } from '../../lib/storage';
import type { CityLookup } from './city-lookup';
import { checkPlace } from './city-gate';
import { chosen } from './city-match';
import { cityKeys } from './form-messages';
import { FIELD_IDS, QuoteForm, type Side } from './QuoteForm';
import {
  bestOf,
  buildShipment,
  EMPTY_DRAFT,
  firstBox,
  isQuestionableWeight,
  matchesDelivery,
  nextSort,
  paretoFront,
  sameShipment,
  swapPlaces,
  type DeliveryFilter,
  type BuiltShipment,
  type DeliveryType,
  type QuoteDraft,
  type Rate,
  type SortKey,
} from './logic';
import { ResultsPanel, type ResultRows } from './ResultsPanel';
import type { ViewPrefs } from './ResultsToolbar';
import type { RunState } from './run';
import { useQuoteSession } from './session';
import { useDraft } from './useDraft';
import { useQuoteKeys } from './useQuoteKeys';
import { useQuoteOutput } from './useQuoteOutput';
import { useQuoteSetup } from './useQuoteSetup';
import { OriginsPanel } from './OriginsPanel';
import { useOrigin } from './useOrigin';
import { fieldErrors, firstInvalidField } from './field-errors';
import { NO_ORIGIN, originsOf } from './warehouses';

const VIEW_KEY = 'ratedesk.quote.view';

function readView(): ViewPrefs {
  const raw = readJson(VIEW_KEY) as Partial<ViewPrefs> | null;
  return { pareto: raw?.pareto === true, chart: raw?.chart !== false };
}

function sameDraft(a: QuoteDraft, b: QuoteDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function QuoteScreen(): ReactNode {
  const t = useT('quote');
  const ti = useT('quoteInput');
  const tw = useT('warehouses');
  const tx = useT('quoteExt');
  const toast = useToast();
  const { info } = useApp();
  const session = useQuoteSession();
  const { run, sort } = session;
  const { draft, setDraft, update, fresh } = useDraft();
  const setup = useQuoteSetup((defaults) => {
    if (fresh) setDraft((d) => ({ ...d, carriers: defaults }));
  });
  const { carriers } = setup;
  const origin = useOrigin({
    draft,
    setDraft,
    deskCarriers: setup.deskCarriers,
    deskPresets: setup.presets,
    stored: setup.storedOrigin,
    allLabel: (n) => tw('allCities', { n }),
  });
  const { presets } = origin;
  const [showErrors, setShowErrors] = useState(false);
  /** Cities the core does not know and no postal code to go by: the quote would only come back empty. */
  const [unknownCity, setUnknownCity] = useState<Record<Side, boolean>>({ from: false, to: false });
  const [cities, setCities] = useState<Record<Side, CityLookup | null>>({ from: null, to: null });
  /** Cities several places answer to: asked about in the field before a quote goes out (issue #17). */
  const [unconfirmed, setUnconfirmed] = useState<Record<Side, boolean>>({ from: false, to: false });
  /** Bumped to make a city field open its question (a quote was attempted with a doubtful city). */
  const [asks, setAsks] = useState<Record<Side, number>>({ from: 0, to: 0 });
  /** A weight of 10 g or less asked about (grams), until it changes or is confirmed. */
  const [lightWeight, setLightWeight] = useState<number | null>(null);
  const [delivery, setDelivery] = useState<DeliveryFilter>('all');
  const [view, setViewState] = useState<ViewPrefs>(readView);
  const [selected, setSelected] = useState<string | null>(null);
  const cityRef = useRef<HTMLInputElement>(null);
  // «Откуда» for the keyboard (Ctrl+K, Esc, the first focus): the warehouse picker when there are warehouses.
  const fromRef = origin.list.length > 0 ? origin.pickerRef : cityRef;
  const firstRowAt = useRef<number | null>(null);
  /** What Esc cleared, until the next clear or quote (Ctrl+Z / «Вернуть» bring it back). */
  const undo = useRef<{ draft: QuoteDraft; run: RunState; cleared: QuoteDraft } | null>(null);

  // The screen opens with the cursor in "Откуда" (ux.md: the form is filled without the mouse).
  useEffect(() => fromRef.current?.focus(), []);
  useEffect(() => {
    if (origin.gone) toast(tw('picker.gone'), 'info');
  }, [origin.gone]);

  const setView = useCallback((v: ViewPrefs) => {
    setViewState(v);
    writeJson(VIEW_KEY, v);
  }, []);

  const built = useMemo(() => buildShipment(draft), [draft]);
  const outdated =
    run.phase !== 'idle' &&
    run.shipment !== null &&
    (!built.ok || !sameShipment(built.shipment, run.shipment));
  // The marker belongs to a result: an empty panel says nothing about prices.
  const sandbox = run.phase !== 'idle' && (run.sandbox ?? info?.sandbox ?? false);

  // Names in the UI language (lib/carrier-names.ts); a code the list does not know (a rate card removed
  // since) keeps the name its rows were stored with.
  const namer = useCarrierNamer(carriers);
  const nameOf: CarrierNameOf = useCallback(
    (code, stored) =>
      namer(code, stored ?? [...run.rates.values()].find((r) => r.carrier === code)?.carrier_name),
    [namer, run.rates],
  );
  const deliveryLabel = useCallback((d: DeliveryType): string => t(`delivery.${d}`), [t]);

  // ---- the table's rows ----
  const rows = useMemo(
    () => run.order.map((k) => run.rates.get(k)).filter((r): r is Rate => r !== undefined),
    [run.order, run.rates],
  );
  const result: ResultRows = useMemo(() => {
    const typed = rows.filter((r) => matchesDelivery(r, delivery));
    const keep = view.pareto ? new Set(paretoFront(typed)) : null;
    return {
      rows,
      visible: keep ? typed.filter((r) => keep.has(r)) : typed,
      badges: bestOf(rows),
      presentTypes: new Set(rows.map((r) => r.delivery_type)),
    };
  }, [rows, delivery, view.pareto]);

  // Enter → first row on screen: measured with the User Timing API (the e2e run reads it).
  useLayoutEffect(() => {
    if (run.key !== null && run.order.length > 0 && firstRowAt.current === null) {
      firstRowAt.current = performance.now();
      try {
        performance.measure('ratedesk:first-rate', 'ratedesk:enter');
      } catch {
        // No enter mark (a run started elsewhere): nothing to measure.
      }
    }
  }, [run.order.length, run.key]);

  // ---- quoting ----
  /**
   * The places checked with the core (city-gate.ts), the draft with any city filled in from its postal code,
   * and the weight's question (issue #17): false when the quote must not go out yet.
   */
  async function readyToQuote(lightConfirmed: boolean): Promise<BuiltShipment | null> {
    const [from, to] = await Promise.all([
      checkPlace(draft.fromCity, draft.fromPostal, cities.from),
      checkPlace(draft.toCity, draft.toPostal, cities.to),
    ]);
    const verdicts = { from, to } as const;
    let d = draft;
    for (const side of ['from', 'to'] as const) {
      const v = verdicts[side];
      const k = cityKeys(side);
      if (v.kind === 'ok' && v.city !== undefined) d = { ...d, [k.city]: v.city };
      if (v.kind === 'unconfirmed' && v.cityText !== undefined) d = { ...d, [k.city]: v.cityText };
      if (v.kind !== 'empty' && v.lookup) {
        const lookup =
          v.kind === 'ok' && v.city !== undefined && v.lookup.match ? chosen(v.lookup.match) : v.lookup;
        setCities((c) => ({ ...c, [side]: lookup }));
      }
    }
    if (d !== draft) setDraft(d);
    const ready = d === draft ? built : buildShipment(d);
    setUnknownCity({ from: from.kind === 'unknown', to: to.kind === 'unknown' });
    setUnconfirmed({ from: from.kind === 'unconfirmed', to: to.kind === 'unconfirmed' });
    const blocked = (side: Side): boolean =>
      verdicts[side].kind === 'unknown' || verdicts[side].kind === 'unconfirmed';
    if (!ready.ok || blocked('from') || blocked('to')) {
      setShowErrors(true);
      const first = firstInvalidField(ready, { from: blocked('from'), to: blocked('to') });
      const field = first && 'field' in first ? first.field : null;
      // A doubtful city opens its question in the field (after this render, so the field has the answer).
      const ask = field === 'fromCity' ? 'from' : field === 'toCity' ? 'to' : null;
      if (ask && verdicts[ask].kind === 'unconfirmed') setAsks((a) => ({ ...a, [ask]: a[ask] + 1 }));
      else if (first) document.getElementById('field' in first ? FIELD_IDS[first.field] : first.id)?.focus();
      return null;
    }
    // 10 g or less: asked once; Enter again (or «Да, 10 г») quotes as typed.
    const grams = firstBox(ready.shipment).weight_grams;
    if (isQuestionableWeight(grams) && !lightConfirmed && lightWeight !== grams) {
      setShowErrors(false);
      setLightWeight(grams);
      document.getElementById(FIELD_IDS.weight)?.focus();
      return null;
    }
    setLightWeight(null);
    return ready;
  }

  async function submit(lightConfirmed = false): Promise<void> {
    performance.clearMarks('ratedesk:enter');
    performance.clearMeasures('ratedesk:first-rate');
    performance.mark('ratedesk:enter');
    const ready = await readyToQuote(lightConfirmed);
    if (!ready || !ready.ok) return;
    setShowErrors(false);
    await startFor(ready.shipment);
  }

  /** A run for this shipment; `probe`: carriers skipped by their breaker to ask at once («спросить сейчас»). */
  async function startFor(shipment: QuoteRequestInput, probe?: string[]): Promise<void> {
    setSelected(null);
    firstRowAt.current = null;
    undo.current = null;
    // Enter pressed before the carrier list arrived: ask for it now, so switched-off carriers still show.
    const list = carriers.length > 0 || !hasDeskApi() ? carriers : await loadQuoteCarriers().catch(() => []);
    const known = new Map(list.map((c) => [c.code, c]));
    const wanted = shipment.carriers ?? list.map((c) => c.code);
    const off = (code: string): boolean => known.get(code)?.enabled === false;
    const asked = {
      shipment,
      carriers: wanted.filter((c) => !off(c)),
      disabled: wanted.filter(off),
      sandbox: info?.sandbox ?? null,
    };
    // «Из всех складов» (#20): the same question from every warehouse, each with its own carriers.
    if (origin.choice.kind === 'all') {
      const warehouses = originsOf(
        origin.list,
        shipment.carriers,
        list.map((c) => c.code),
      ).map((w) => ({
        ...w,
        carriers: w.wanted.filter((c) => !off(c)),
        disabled: w.wanted.filter(off),
      }));
      return session.startOrigins({ shipment, warehouses, sandbox: asked.sandbox });
    }
    await session.start({
      ...asked,
      ...(probe?.length ? { probe } : {}),
      ...(origin.choice.kind === 'warehouse' ? { warehouseId: origin.choice.id } : {}),
    });
  }

  // ---- getting it out: clipboard (columns or text) and files ----
  const output = useQuoteOutput({
    shipment: run.shipment,
    quoteId: run.quoteId,
    visible: result.visible,
    sandbox,
    deliveryLabel,
    nameOf,
    points: run.points ?? {},
  });
  const copySelected = (): Promise<void> =>
    output.copySelected(selected ? run.rates.get(selected) : undefined);

  // ---- clearing, and bringing it back ----
  const undoClear = (): boolean => {
    const saved = undo.current;
    if (!saved) return false;
    undo.current = null;
    setDraft(saved.draft);
    // A run cleared while it was still streaming cannot be resumed; its form comes back on its own.
    if (saved.run.phase !== 'running') session.restore(saved.run);
    // Back in "Откуда" once the form shows the restored text (the empty field's list of recent places,
    // opened when Esc put the cursor there, closes with the blur).
    fromRef.current?.blur();
    requestAnimationFrame(() => fromRef.current?.focus());
    return true;
  };
  const undoRef = useRef(undoClear);
  undoRef.current = undoClear;

  function clearForm(): void {
    const cleared: QuoteDraft = { ...EMPTY_DRAFT, carriers: draft.carriers };
    const hadSomething = !sameDraft(draft, cleared) || run.phase !== 'idle';
    if (hadSomething) undo.current = { draft, run, cleared };
    setDraft(cleared);
    setShowErrors(false);
    setUnknownCity({ from: false, to: false });
    setUnconfirmed({ from: false, to: false });
    setLightWeight(null);
    setSelected(null);
    session.clear();
    fromRef.current?.focus();
    if (hadSomething) {
      toast(t('cleared'), 'info', {
        label: t('undo'),
        onClick: () => undoRef.current(),
        'data-testid': 'undo-clear',
      });
    }
  }

  /** ⇄ makes «Откуда» a typed place: a warehouse's place cannot be the destination's. */
  const swap = (): void => {
    if (origin.choice.kind !== 'none') origin.pick(NO_ORIGIN);
    setDraft(swapPlaces);
  };

  useQuoteKeys({
    fromRef,
    visible: result.visible,
    selected,
    setSelected,
    copySelected: () => void copySelected(),
    clearForm,
    swap,
    // Ctrl+Z is ours only while the form is still as Esc left it; after typing it is the field's own undo.
    undoClear: () => (undo.current && sameDraft(draft, undo.current.cleared) ? undoClear() : false),
  });

  // ---- errors as words ----
  const errors = showErrors ? fieldErrors({ built, draft, unknownCity, unconfirmed, cities, t, ti, tx }) : {};
  // The weight's question stays while the weight is the one asked about.
  const lightShown =
    lightWeight !== null && built.ok && firstBox(built.shipment).weight_grams === lightWeight
      ? lightWeight
      : null;

  const onCityLookup = useCallback((side: Side, l: CityLookup) => {
    setCities((c) => ({ ...c, [side]: l }));
    if (l.status === 'recognised') {
      setUnknownCity((u) => (u[side] ? { ...u, [side]: false } : u));
      setUnconfirmed((u) => (u[side] ? { ...u, [side]: false } : u));
    }
  }, []);

  return (
    <section className="screen quote-screen" aria-labelledby="quote-title">
      <h1 id="quote-title" className="sr-only">
        {t('title')}
      </h1>
      <QuoteForm
        draft={draft}
        update={update}
        onSwap={swap}
        onSubmit={() => void submit()}
        running={run.phase === 'running'}
        carriers={carriers}
        presets={presets}
        errors={errors}
        cities={cities}
        onCityLookup={onCityLookup}
        fromRef={cityRef}
        origin={{ ...origin, onPick: origin.pick }}
        asks={asks}
        lightWeight={lightShown}
        onKeepLight={() => void submit(true)}
      />
      {session.origins.phase !== 'idle' ? (
        <OriginsPanel
          state={session.origins}
          nameOf={nameOf}
          deliveryLabel={deliveryLabel}
          sandbox={session.origins.result?.origins.some((o) => o.result?.sandbox) ?? info?.sandbox ?? false}
        />
      ) : (
        <ResultsPanel
          run={run}
          rows={result}
          sort={sort}
          onSort={(key) => session.setSort(nextSort(sort, key as SortKey))}
          selected={selected}
          onSelect={(key) => setSelected(key)}
          delivery={delivery}
          onDelivery={setDelivery}
          view={view}
          onView={setView}
          nameOf={nameOf}
          deliveryLabel={deliveryLabel}
          outdated={outdated}
          sandbox={sandbox}
          onRetry={() => void submit()}
          onRepeat={(probe) => {
            // The result's own question again (the form may have moved on since).
            if (run.shipment) void startFor(run.shipment, probe);
          }}
          onCopyAll={() => void output.copyTable()}
          onCopyText={() => void output.copyTableText()}
          onCopyCustomer={() => void output.copyCustomer(selected ? run.rates.get(selected) : undefined)}
          onChoosePoint={session.choosePoint}
          onExport={(format) => void output.exportAs(format)}
          exporting={output.exporting}
        />
      )}
    </section>
  );
}
