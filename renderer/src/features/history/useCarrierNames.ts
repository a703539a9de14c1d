// Carrier and rate-card names for codes (history rows store codes): read once per screen, the code itself until then.
import { useCallback, useEffect, useState } from 'react';
import { hasDeskApi } from '../../api/client';
import { loadQuoteCarriers, type QuoteCarrier } from '../../api/quote-carriers';

export function useCarrierNames(): (code: string) => string {
  const [carriers, setCarriers] = useState<QuoteCarrier[]>([]);
  useEffect(() => {
    if (!hasDeskApi()) return;
    loadQuoteCarriers()
      .then(setCarriers)
      .catch(() => {});
  }, []);
  return useCallback((code) => carriers.find((c) => c.code === code)?.name ?? code, [carriers]);
}
