// Which of a point's rates a shipper pays (audit F6). A point's `rate[]` can hold one rate per 5Post hub, and
// the 2025 integration guide (§4.4) says to take the one of the hub the sender's warehouse hands parcels to;
// most partners see one rate per point. Its §4.1 names the hubs by `rateType` (HUB_MOSCOW, HUB_SPB) and by
// `rateTypeCode` (10 HubMoscow, 20 HubSPB, 30 HubEKB); the 2021 capture has `rateType` empty and code 10, the
// 2020 one `Hub_Bogorodsk`, a 2025 callback `"tariff": "HUB Moscow"`: spellings vary, so names are compared
// without case and punctuation, and the code answers when the name says nothing.
//
// UNVERIFIED: which hub a partner's warehouse belongs to is in its 5Post contract, not in the API. RateDesk
// takes the hub nearest the sender (SENDER_HUBS, by the sender's postal code) and DEFAULT_HUB elsewhere.
import type { PointRate } from './points';

export type HubName = 'HUB_MOSCOW' | 'HUB_SPB' | 'HUB_EKB';

interface Hub {
  /** `rateType` spellings, upper case without anything but letters and digits. */
  names: readonly string[];
  /** `rateTypeCode` (guide §4.1). */
  code: string;
}

export const HUBS: Readonly<Record<HubName, Hub>> = {
  HUB_MOSCOW: { names: ['HUBMOSCOW', 'HUBMSK', 'MOSCOW'], code: '10' },
  HUB_SPB: { names: ['HUBSPB', 'HUBSAINTPETERSBURG', 'HUBPETERSBURG', 'SPB'], code: '20' },
  HUB_EKB: { names: ['HUBEKB', 'HUBEKATERINBURG', 'HUBYEKATERINBURG', 'EKB'], code: '30' },
};

/**
 * The hub for a sender, by the first digits of its postal code (Russian Post's regions): Moscow 101–129 and
 * Moscow oblast 140–144; St Petersburg 190–199 and Leningrad oblast 187–188; Sverdlovsk oblast 620–624.
 */
export const SENDER_HUBS: ReadonlyArray<{ prefix: RegExp; hub: HubName }> = [
  { prefix: /^(?:1[01]\d|12\d|14[0-4])/, hub: 'HUB_MOSCOW' },
  { prefix: /^(?:19\d|18[78])/, hub: 'HUB_SPB' },
  { prefix: /^62[0-4]/, hub: 'HUB_EKB' },
];

/** A sender elsewhere (or without an index): 5Post's Moscow hub, code 10, the one of the 2021 capture. */
export const DEFAULT_HUB: HubName = 'HUB_MOSCOW';

export function hubOfSender(postalCode: string | null | undefined): HubName {
  const code = postalCode?.trim() ?? '';
  return SENDER_HUBS.find((h) => h.prefix.test(code))?.hub ?? DEFAULT_HUB;
}

/** Whether a rate is the hub's: by its `rateType` when it names a hub, else by its `rateTypeCode`. */
export function isHubRate(rate: PointRate, hub: HubName): boolean {
  const name = rate.rateType.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (name !== '') return HUBS[hub].names.includes(name);
  return rate.rateTypeCode !== null && rate.rateTypeCode === HUBS[hub].code;
}

/**
 * The rate a shipper of `hub` pays at a point, by the price each rate gives (null: no price for this parcel):
 * the only rate when there is one (whatever it is called: it is the partner's); the hub's when there are
 * several (the cheapest, should the hub have two); and when none of several is the hub's, the dearest, so
 * that a guess never underquotes.
 */
export function hubPrice(
  rates: readonly PointRate[],
  hub: HubName,
  price: (rate: PointRate) => number | null,
): number | null {
  const priced = (list: readonly PointRate[]): number[] =>
    list.map(price).filter((p): p is number => p !== null);
  if (rates.length <= 1) return priced(rates)[0] ?? null;
  const own = rates.filter((r) => isHubRate(r, hub));
  if (own.length > 0) {
    const prices = priced(own);
    return prices.length > 0 ? Math.min(...prices) : null;
  }
  const any = priced(rates);
  return any.length > 0 ? Math.max(...any) : null;
}
