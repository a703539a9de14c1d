// Everything a quote can ask: the built-in carriers (carriers:list) and the rate cards (ratecards:list), which
// the core quotes beside them. The quote form, its carrier picker, the default-carriers setting and the history's
// names all read this one list, so a card imported on the Carriers screen is quoted like any carrier.
import type { CarrierView } from '../../../core/desk/contract';
import { call } from './client';

export interface QuoteCarrier extends Pick<CarrierView, 'code' | 'name' | 'name_en' | 'enabled'> {
  kind: 'carrier' | 'rate_card';
}

export async function loadQuoteCarriers(): Promise<QuoteCarrier[]> {
  const [builtIn, cards] = await Promise.all([
    call((api) => api.carriers.list()),
    // An older core or a failing read of the cards must not hide the carriers themselves.
    call((api) => api.ratecards.list()).catch(() => []),
  ]);
  return [
    ...builtIn.map((c): QuoteCarrier => ({
      code: c.code,
      name: c.name,
      name_en: c.name_en,
      enabled: c.enabled,
      kind: 'carrier',
    })),
    // A rate card has the one name the admin gave it, in either language.
    ...cards.map((c): QuoteCarrier => ({
      code: c.code,
      name: c.name,
      name_en: c.name,
      enabled: true,
      kind: 'rate_card',
    })),
  ];
}
