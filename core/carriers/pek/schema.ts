// zod schemas of what PEK's cabinet API answers (verified-2026.md §5, from the OpenAPI-generated glook/pecom-php-sdk
// models and the official help quoted by the aerogram client). Loose objects: PEK adds fields, and a quote must
// not break on them. Every answer is read through one of these; anything else is a carrier_error.
import { z } from 'zod';

/** Roubles: a number (5319, 446.6), though one help page calls it [String]; both are accepted (PK-AG). */
const Roubles = z.union([z.number().min(0), z.string().min(1)]);

/** `{"error":{title,message,…}}`: logical errors inside HTTP 200, and the 400/403/500 bodies (PK-GL, PK-AG). */
export const PekErrorBody = z.looseObject({
  error: z.looseObject({
    title: z.string().optional().catch(undefined),
    message: z.string().optional().catch(undefined),
    status: z.union([z.number(), z.string()]).optional().catch(undefined),
    fields: z
      .array(z.looseObject({ key: z.string().optional(), value: z.unknown() }))
      .optional()
      .catch(undefined),
  }),
});
export type PekErrorBody = z.infer<typeof PekErrorBody>;

/**
 * One priced service of a product (`transfers[].services[]`, glook `CalculatorServiceItem.php`): `serviceType`
 * «наименование группы услуги», `cost` roubles «не включает стоимости подуслуг из вложенного массива
 * `services`», whose costs are added on top. Read leniently: a service that cannot be read costs only itself.
 */
export interface PekService {
  serviceType?: string | undefined;
  info?: string | undefined;
  cost?: number | string | null | undefined;
  services?: PekService[] | undefined;
}
export const PekService: z.ZodType<PekService> = z.lazy(() =>
  z.looseObject({
    serviceType: z.string().optional().catch(undefined),
    info: z.string().optional().catch(undefined),
    cost: Roubles.nullable().optional().catch(undefined),
    services: z.array(PekService).optional().catch(undefined),
  }),
);

/** One product's answer in `transfers[]`. `type` is the product id (3 LTL, 1 avia, 12 EasyWay). */
export const PekTransfer = z.looseObject({
  type: z.int(),
  hasError: z.boolean().optional().catch(undefined),
  errorMessage: z.string().nullable().optional().catch(undefined),
  costTotal: Roubles.nullable().optional(),
  /** Calendar days, pickup and delivery included; typed as a float in PK-GL Transfer, so a part day counts whole. */
  estDeliveryTime: z
    .number()
    .min(0)
    .transform((d) => Math.ceil(d))
    .nullable()
    .optional()
    .catch(undefined),
  services: z.array(PekService).optional().catch(undefined),
});
export type PekTransfer = z.infer<typeof PekTransfer>;

const TermStrings = z.array(z.string()).optional().catch(undefined);

/** `commonTerms[]`: transit terms as strings, "N" or "min – max" (PK-GL CommonTerm). */
export const PekCommonTerm = z.looseObject({
  type: z.int().optional().catch(undefined),
  transporting: TermStrings,
  transportingWithDelivery: TermStrings,
});
export type PekCommonTerm = z.infer<typeof PekCommonTerm>;

/** POST /calculator/calculateprice/, HTTP 200 without `error`. */
export const PekCalculateResponse = z.looseObject({
  hasError: z.boolean().optional().catch(undefined),
  errorMessage: z.string().nullable().optional().catch(undefined),
  currencyCode: z.union([z.string(), z.number()]).optional().catch(undefined),
  transfers: z.array(z.unknown()).optional(),
  commonTerms: z.array(z.unknown()).optional().catch(undefined),
});
export type PekCalculateResponse = z.infer<typeof PekCalculateResponse>;

/** POST /branches/findzonebyaddress/: the zone of an address; an empty answer means "outside PEK's zone". */
export const PekZone = z.looseObject({
  mainWarehouseId: z.string().min(1),
  branchUID: z.string().optional().catch(undefined),
  branchTitle: z.string().optional().catch(undefined),
  zoneName: z.string().optional().catch(undefined),
});
export type PekZone = z.infer<typeof PekZone>;
