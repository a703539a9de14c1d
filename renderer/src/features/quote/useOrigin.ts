// «Откуда» from a named warehouse (#20): the list (read once per visit), the desk's choice (remembered in
// the desk-local setting ui.warehouse), and the form kept in step with it. While a warehouse is chosen its
// place IS «Откуда»: whatever sets the form (Esc clearing it, Ctrl+Z bringing it back, a restored draft)
// gets the warehouse's city and postal code back. With no warehouses nothing here touches the form.
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Warehouse } from '../../../../core/desk/contract';
import { call, hasDeskApi } from '../../api/client';
import type { QuoteDraft } from './logic';
import type { BoxPreset } from './presets';
import {
  anyOrigin,
  applyWarehouse,
  formatOriginSetting,
  NO_ORIGIN,
  parseOriginSetting,
  presetsFor,
  resolveOrigin,
  type OriginChoice,
} from './warehouses';

export interface Origin {
  list: Warehouse[];
  choice: OriginChoice;
  /** The chosen warehouse (null for none and for all). */
  warehouse: Warehouse | null;
  /** The remembered warehouse was removed since: said once, under the picker. */
  gone: boolean;
  pick: (choice: OriginChoice) => void;
  /** The boxes the form offers now. */
  presets: BoxPreset[];
  /** What the read-only «Откуда» shows. */
  fixed: { city: string; postal: string };
  pickerRef: RefObject<HTMLSelectElement | null>;
}

export function useOrigin(p: {
  draft: QuoteDraft;
  setDraft: (next: (d: QuoteDraft) => QuoteDraft) => void;
  deskCarriers: string[] | null;
  deskPresets: BoxPreset[];
  /** ui.warehouse; undefined until the settings have been read. */
  stored: string | undefined;
  allLabel: (n: number) => string;
}): Origin {
  const [list, setList] = useState<Warehouse[] | undefined>(undefined);
  const [choice, setChoice] = useState<OriginChoice>(NO_ORIGIN);
  const [gone, setGone] = useState(false);
  const pickerRef = useRef<HTMLSelectElement>(null);
  const resolved = useRef(false);
  const { setDraft, deskCarriers, stored } = p;

  useEffect(() => {
    if (!hasDeskApi()) return;
    let live = true;
    call((api) => api.warehouses.list())
      .then((l) => {
        if (live) setList(l);
      })
      // No warehouses to offer (an older core, a refusal): the form stays as it always was.
      .catch(() => {
        if (live) setList([]);
      });
    return () => {
      live = false;
    };
  }, []);

  // Once both are known: the remembered choice against today's list.
  useEffect(() => {
    if (resolved.current || list === undefined || stored === undefined) return;
    resolved.current = true;
    const r = resolveOrigin(parseOriginSetting(stored), list);
    setChoice(r.choice);
    setGone(r.gone);
    // The picker is «Откуда» now: the cursor goes there, unless the clerk has already moved on.
    if (list.length > 0) {
      const active = document.activeElement;
      if (!active || active === document.body || active.id === 'from-city') pickerRef.current?.focus();
    }
  }, [list, stored]);

  const warehouse = choice.kind === 'warehouse' ? (list?.find((w) => w.id === choice.id) ?? null) : null;
  const fixedPlace = useMemo(() => {
    if (warehouse) return { city: warehouse.city, postal: warehouse.postal_code ?? '' };
    if (choice.kind === 'all' && list) return anyOrigin(list);
    return null;
  }, [warehouse, choice.kind, list]);

  // The form follows the choice: a warehouse's place (or, for «all», any one valid place the core replaces).
  const { fromCity, fromPostal } = p.draft;
  useEffect(() => {
    if (!fixedPlace) return;
    if (fromCity === fixedPlace.city && fromPostal === fixedPlace.postal) return;
    setDraft((d) => ({ ...d, fromCity: fixedPlace.city, fromPostal: fixedPlace.postal }));
  }, [fixedPlace, fromCity, fromPostal, setDraft]);

  const pick = useCallback(
    (next: OriginChoice) => {
      setChoice(next);
      setGone(false);
      if (next.kind === 'warehouse') {
        const w = list?.find((x) => x.id === next.id);
        if (w) setDraft((d) => applyWarehouse(d, w, deskCarriers));
      }
      // Desk-local (never the company's): each computer remembers its own warehouse.
      if (hasDeskApi()) {
        void call((api) =>
          api.settings.set({ name: 'ui.warehouse', value: formatOriginSetting(next) }),
        ).catch(() => {});
      }
    },
    [list, deskCarriers, setDraft],
  );

  const presets = useMemo(() => presetsFor(warehouse, p.deskPresets), [warehouse, p.deskPresets]);
  const n = list?.length ?? 0;
  const fixed =
    choice.kind === 'all'
      ? { city: p.allLabel(n), postal: '' }
      : (fixedPlace ?? { city: p.draft.fromCity, postal: p.draft.fromPostal });

  return { list: list ?? [], choice, warehouse, gone, pick, presets, fixed, pickerRef };
}
