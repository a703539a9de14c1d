// Reading a history row back: the shipment and the result the service stored as JSON text.
import { z } from 'zod';
import { AdminError } from '../admin/errors';
import { Rate, Shipment, Unavailable } from '../contract/v1';
import type { QuoteRow } from '../store/quotes';

/** /v1 rows store the whole response body (request_id, balance_remaining too): only these two matter here. */
const StoredResult = z.object({ rates: z.array(Rate), unavailable: z.array(Unavailable) });

export interface StoredQuote {
  row: QuoteRow;
  shipment: Shipment;
  rates: Rate[];
  unavailable: Unavailable[];
}

export function storedQuote(row: QuoteRow): StoredQuote {
  const shipment = parseStoredShipment(row.shipment_json);
  if (!shipment) throw new Error(`quote ${row.id}: stored shipment does not parse`);
  return { row, shipment, ...storedResult(row) };
}

/** A damaged result reads as "no rates" so one bad row cannot break the history screen or an export. */
export function storedResult(row: QuoteRow): { rates: Rate[]; unavailable: Unavailable[] } {
  try {
    const r = StoredResult.safeParse(JSON.parse(row.result_json));
    if (r.success) return r.data;
  } catch {
    // fall through
  }
  return { rates: [], unavailable: [] };
}

export function requireQuoteRow(rows: { byId(id: number): QuoteRow | undefined }, id: number): QuoteRow {
  const row = rows.byId(id);
  if (!row) throw new AdminError('not_found', `No quote #${id} in history.`);
  return row;
}

/** Stored rows were valid when written; a row that no longer parses (older format) is skipped, not fatal. */
export function parseStoredShipment(json: string): Shipment | null {
  try {
    const r = Shipment.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
