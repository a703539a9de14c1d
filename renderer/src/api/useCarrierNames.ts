// Carrier names in the UI language, for every screen that shows one (lib/carrier-names.ts has the rule).
// A screen that already holds the carrier list passes it to useCarrierNamer; one that holds only codes (History)
// uses useCarrierNames, which reads the list once per screen. Either follows a language switch at once.
import { useEffect, useMemo, useState } from 'react';
import { useLang } from '../i18n';
import { carrierNamer, type CarrierNameOf, type NamedCarrier } from '../lib/carrier-names';
import { hasDeskApi } from './client';
import { loadQuoteCarriers, type QuoteCarrier } from './quote-carriers';

/** Names by code from a list in hand, in the current UI language. */
export function useCarrierNamer(carriers: readonly NamedCarrier[]): CarrierNameOf {
  const { lang } = useLang();
  return useMemo(() => carrierNamer(carriers, lang), [carriers, lang]);
}

/** The carriers and rate cards (codes, names, which are switched off), read once per screen. */
export function useQuoteCarrierList(): QuoteCarrier[] {
  const [carriers, setCarriers] = useState<QuoteCarrier[]>([]);
  useEffect(() => {
    if (!hasDeskApi()) return;
    let live = true;
    loadQuoteCarriers()
      .then((list) => {
        if (live) setCarriers(list);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return carriers;
}

/** Names by code for carriers and rate cards: the code (or the row's stored name) until the list arrives. */
export function useCarrierNames(): CarrierNameOf {
  return useCarrierNamer(useQuoteCarrierList());
}
