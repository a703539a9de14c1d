// zod schemas of DPD's calculator2 answers after XML parsing (soap.ts: namespace prefixes dropped, every
// value text, repeated elements as arrays). Loose objects: DPD's WSDL has grown fields before
// (getServiceCostByParcels3's totalCost, verified-2026 §6.2) and new ones must not break a quote.
import { z } from 'zod';

const text = z.string().trim();
const digits = z.string().regex(/^\d+$/);

/** One `return` of getServiceCost2Response: serviceCode, serviceName, cost (xsd:double, roubles), days (int). */
export const DpdServiceCost = z.looseObject({
  serviceCode: text.min(1),
  serviceName: text.optional().catch(undefined),
  cost: text.regex(/^\d+(?:\.\d+)?$/),
  days: digits.optional().catch(undefined),
  /**
   * Not in the captured answers (the price is in the contract's currency, verified-2026 §6.3), but read when
   * present: a currency other than RUB must never pass as roubles.
   */
  currency: text.optional().catch(undefined),
});
export type DpdServiceCost = z.infer<typeof DpdServiceCost>;

/** `<getServiceCost2Response>`: an empty element (no service on the route) or its `return` list. */
export const DpdServiceCostResponse = z.union([
  z.literal(''),
  z.looseObject({ return: z.array(z.unknown()).optional() }),
]);

/**
 * A candidate city of an ambiguous name. `ServiceCostFault2` lists `CityIndex` (DP-SVC, DP-GO2: cityId,
 * countryCode, countryName, regionCode, regionName, cityCode, cityName, abbreviation, indexMin, indexMax), every
 * field optional in the WSDL (`omitempty`); the older `ServiceCostFault` lists `city` with only cityId,
 * countryCode, countryName, regionCode, regionName and cityName (DP-SVC `city`, DP-GO2 `CalculatorCity`). So
 * nothing here is required: the choice is made by whatever a candidate carries (locations.ts).
 */
export const DpdCityIndex = z.looseObject({
  cityId: digits.optional().catch(undefined),
  countryCode: text.optional().catch(undefined),
  regionCode: digits.optional().catch(undefined),
  regionName: text.optional().catch(undefined),
  /** DPD's cityCode: the 11-digit KLADR code of the settlement (Москва 77000000000 in a terminal fixture). */
  cityCode: digits.optional().catch(undefined),
  cityName: text.optional().catch(undefined),
  abbreviation: text.optional().catch(undefined),
  indexMin: text.optional().catch(undefined),
  indexMax: text.optional().catch(undefined),
});
export type DpdCityIndex = z.infer<typeof DpdCityIndex>;

const dups = z
  .array(z.unknown())
  .optional()
  .transform((list) =>
    (list ?? []).flatMap((c) => {
      const r = DpdCityIndex.safeParse(c);
      return r.success ? [r.data] : [];
    }),
  );

/**
 * The Fault's `detail/ServiceCostFault2{code, message, deliveryDups[], pickupDups[]}` (verified-2026 §6.4), or
 * the older `ServiceCostFault` of the same shape with leaner candidates (DP-SVC), read the same way.
 */
export const DpdServiceCostFault = z.looseObject({
  code: text.optional().catch(undefined),
  message: text.optional().catch(undefined),
  pickupDups: dups,
  deliveryDups: dups,
});
export type DpdServiceCostFault = z.infer<typeof DpdServiceCostFault>;
