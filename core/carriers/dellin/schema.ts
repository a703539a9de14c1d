// zod schemas of what Dellin answers (protocols.md §4.4–4.6, verified-2026 §4). Loose objects: Dellin adds
// fields, and blocks it does not price for a route are simply absent.
import { z } from 'zod';

/** Roubles: a number, or a decimal string (third-party clients see both). */
const roubles = z.union([z.number().min(0), z.string().regex(/^\d+(?:\.\d+)?$/)]);

/** One price block of the answer (derival, arrival, intercity, small, air, express, letter). */
const PriceBlock = z.looseObject({
  price: roubles.nullable().optional().catch(undefined),
  contractPrice: z.boolean().optional().catch(undefined),
});

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/);
const optionalDate = date.nullable().optional().catch(undefined);

/**
 * `orderDates`: mixed formats (date only, or date and time: verified-2026 §4.3), and two spellings of the
 * "derival" fields: xylocode `Calc1/Res/OrderDates.cs` has `derrivalFromOspSender`, `derrivalFromOspReceiver`,
 * `derrivalToAddress` (but `derivalToAddressMax`), potapov-denis `src/Entities/OrderDates.php` one "r"
 * throughout. Both are read (protocols.md §4.4). `derivalToAddress(Max)` is answered for avia and express only
 * (OrderDates.cs: «присутствует в ответе только при расчёте… авиа или экспресс»; audit DL9).
 */
export const DellinOrderDates = z.looseObject({
  pickup: optionalDate,
  arrivalToOspSender: optionalDate,
  derivalFromOspSender: optionalDate,
  derrivalFromOspSender: optionalDate,
  arrivalToOspReceiver: optionalDate,
  giveoutFromOspReceiver: optionalDate,
  giveoutFromOspReceiverMax: optionalDate,
  derivalFromOspReceiver: optionalDate,
  derrivalFromOspReceiver: optionalDate,
  derivalToAddress: optionalDate,
  derrivalToAddress: optionalDate,
  derivalToAddressMax: optionalDate,
  derrivalToAddressMax: optionalDate,
});
export type DellinOrderDates = z.infer<typeof DellinOrderDates>;

/** A successful /v2/calculator.json answer: `{metadata, data}`. */
export const DellinCalculation = z.looseObject({
  metadata: z.looseObject({ status: z.int().optional() }).optional(),
  data: z.looseObject({
    /** Total for the chosen delivery type, roubles; null with contract prices (protocols.md §4.4). */
    price: roubles.nullable().optional(),
    derival: PriceBlock.optional().catch(undefined),
    arrival: PriceBlock.optional().catch(undefined),
    intercity: PriceBlock.optional().catch(undefined),
    small: PriceBlock.optional().catch(undefined),
    air: PriceBlock.optional().catch(undefined),
    express: PriceBlock.optional().catch(undefined),
    letter: PriceBlock.optional().catch(undefined),
    insurance: roubles.optional().catch(undefined),
    orderDates: DellinOrderDates.optional().catch(undefined),
    /** Days from the receiving terminal to the address (xylocode `CalculationResponse.cs`: «от терминала получения до адреса»). */
    deliveryTerm: z.int().min(0).nullable().optional().catch(undefined),
  }),
});
export type DellinCalculation = z.infer<typeof DellinCalculation>;

/** One error of the official error format (DL-ERR). */
export const DellinError = z.looseObject({
  code: z
    .union([z.int(), z.string().regex(/^\d+$/).transform(Number)])
    .optional()
    .catch(undefined),
  title: z.string().optional().catch(undefined),
  detail: z.string().optional().catch(undefined),
  fields: z.array(z.string()).optional().catch(undefined),
});
export type DellinError = z.infer<typeof DellinError>;

/**
 * Every error form a client meets (verified-2026 §4.4): the official `{metadata, errors:[…]}`, and the older
 * `{"error":{"description"}}` and `{"errors":"text"}` that DL-PD also handles.
 */
export const DellinErrorBody = z.union([
  z.looseObject({ errors: z.array(DellinError).min(1) }),
  z.looseObject({ errors: z.string().min(1) }),
  z.looseObject({
    error: z.looseObject({ description: z.string().optional(), title: z.string().optional() }),
  }),
]);

/** POST /v1/public/request_terminals.json: the terminals of a city for one direction. */
export const DellinTerminals = z.looseObject({
  terminals: z.array(
    z.looseObject({
      id: z.union([z.int().positive(), z.string().regex(/^\d+$/)]),
      name: z.string().optional().catch(undefined),
      address: z.string().optional().catch(undefined),
      default: z.boolean().optional().catch(undefined),
    }),
  ),
});
