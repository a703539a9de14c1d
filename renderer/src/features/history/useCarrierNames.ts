// Carrier names for codes (history rows store codes): read once per screen, the code itself until then.
import { useCallback, useEffect, useState } from 'react';
import type { CarrierView } from '../../../../core/desk/contract';
import { call, hasDeskApi } from '../../api/client';

export function useCarrierNames(): (code: string) => string {
  const [carriers, setCarriers] = useState<CarrierView[]>([]);
  useEffect(() => {
    if (!hasDeskApi()) return;
    call((api) => api.carriers.list())
      .then(setCarriers)
      .catch(() => {});
  }, []);
  return useCallback((code) => carriers.find((c) => c.code === code)?.name ?? code, [carriers]);
}
