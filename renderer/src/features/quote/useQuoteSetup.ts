// What the quote form needs from the core once per visit: the carriers and rate cards (names, which are switched off),
// the box presets and the carriers preselected in Settings.
import { useEffect, useState } from 'react';
import { call, hasDeskApi } from '../../api/client';
import type { QuoteCarrier } from '../../api/quote-carriers';
import { useQuoteCarrierList } from '../../api/useCarrierNames';
import { parseBoxPresets, type BoxPreset } from './presets';

export function useQuoteSetup(onDefaultCarriers: (codes: string[]) => void): {
  carriers: QuoteCarrier[];
  presets: BoxPreset[];
  /** The desk's preselected carriers (null: all), for a warehouse without its own (#20). */
  deskCarriers: string[] | null;
  /** ui.warehouse as stored; undefined until the settings have been read. */
  storedOrigin: string | undefined;
} {
  const carriers = useQuoteCarrierList();
  const [presets, setPresets] = useState<BoxPreset[]>([]);
  const [deskCarriers, setDeskCarriers] = useState<string[] | null>(null);
  const [storedOrigin, setStoredOrigin] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!hasDeskApi()) return;
    let live = true;
    call((api) => api.settings.get())
      .then((settings) => {
        if (!live) return;
        const value = (name: string): string | undefined => settings.find((s) => s.name === name)?.value;
        setPresets(parseBoxPresets(value('ui.box_presets') ?? ''));
        const defaults = (value('ui.default_carriers') ?? '').split(',').filter(Boolean);
        if (defaults.length > 0) onDefaultCarriers(defaults);
        setDeskCarriers(defaults.length > 0 ? defaults : null);
        setStoredOrigin(value('ui.warehouse') ?? '');
      })
      .catch(() => setStoredOrigin(''));
    return () => {
      live = false;
    };
    // Once per visit of the screen; the callback is read at that moment.
  }, []);
  return { carriers, presets, deskCarriers, storedOrigin };
}
