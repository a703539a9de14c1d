// Reading a history row back: the shipment and the result the service stored as JSON text. Desk rows store
// the carriers that gave no rate as kinds (`failures`); /v1 rows store the wire body, and older desk rows
// only the English reasons: those are read back into kinds here, once, so no UI parses English.
import { z } from 'zod';
import { CarrierFailure, failureFromReason } from '../contract/unavailable';
import { QuoteRate, QuoteRequest, type QuoteShipment } from '../contract/quote-ext';
import { Rate, Unavailable } from '../contract/v1';
import type { QuoteRow } from '../store/port';
import { OperationError } from './errors';

/** /v1 rows store the whole response body (request_id, balance_remaining too): only these fields matter here. */
const StoredResult = z.object({
  /** Rates stored before #21 (and /v1 bodies) have only the /v1 fields. */
  rates: z.array(z.union([QuoteRate, Rate])),
  failures: z.array(CarrierFailure).optional(),
  unavailable: z.array(Unavailable).optional(),
});

export interface StoredQuote {
  row: QuoteRow;
  shipment: QuoteShipment;
  rates: Array<QuoteRate | Rate>;
  failures: CarrierFailure[];
}

export function storedQuote(row: QuoteRow): StoredQuote {
  const shipment = parseStoredShipment(row.shipment_json);
  if (!shipment) throw new Error(`quote ${row.id}: stored shipment does not parse`);
  return { row, shipment, ...storedResult(row) };
}

/** A damaged result reads as "no rates" so one bad row cannot break the history screen or an export. */
export function storedResult(row: QuoteRow): { rates: Array<QuoteRate | Rate>; failures: CarrierFailure[] } {
  try {
    const r = StoredResult.safeParse(JSON.parse(row.result_json));
    if (r.success) {
      const failures =
        r.data.failures ?? (r.data.unavailable ?? []).map((u) => failureFromReason(u.carrier, u.reason));
      return { rates: r.data.rates, failures };
    }
  } catch {
    // fall through
  }
  return { rates: [], failures: [] };
}

export async function requireQuoteRow(
  rows: { byId(id: number): Promise<QuoteRow | undefined> },
  id: number,
): Promise<QuoteRow> {
  const row = await rows.byId(id);
  if (!row) throw new OperationError('not_found', `No quote #${id} in history.`);
  return row;
}

/** Stored rows were valid when written; a row that no longer parses (older format) is skipped, not fatal. */
export function parseStoredShipment(json: string): QuoteShipment | null {
  try {
    // A /v1 shipment (one parcel, no COD) is a QuoteRequest as it stands.
    const r = QuoteRequest.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
