// The quote history, the notification log and carrier health on the company database: one statement each.
import type {
  CarrierHealthRow,
  CarrierHealthStore,
  NewQuote,
  NotificationRow,
  NotificationsStore,
  QuoteRow,
  QuotesStore,
} from '../port';
import type { PgDb, Queryable } from './pool';

const INSERT_QUOTE = `
  INSERT INTO quotes (request_id, source, created_at, from_city, to_city, weight_grams, cheapest_kopecks,
                      carriers, sandbox, shipment_json, result_json, author, warehouse)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`;

export async function insertQuote(q: Queryable, quote: NewQuote): Promise<number> {
  const values = [
    quote.request_id,
    quote.source,
    quote.created_at,
    quote.from_city,
    quote.to_city,
    quote.weight_grams,
    quote.cheapest_kopecks,
    quote.carriers,
    quote.sandbox,
    quote.shipment_json,
    quote.result_json,
    quote.author,
    quote.warehouse,
  ];
  return (await q.query<{ id: number }>({ name: 'insert_quote', text: INSERT_QUOTE, values })).rows[0]!.id;
}

export function pgQuotes(db: PgDb): QuotesStore {
  return {
    insert: (quote) => insertQuote(db.pool, quote),
    byId: (id) => db.first<QuoteRow>('SELECT * FROM quotes WHERE id = $1', [id]),
    search(text, limit = 100, offset = 0, filter = {}) {
      const t = text.trim();
      // `%` and `_` in the text are characters, not wildcards (as in the embedded store).
      const like = `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const values: unknown[] = [t, like, limit, offset];
      // Only the filters given, so a filter by author or warehouse reads its index.
      const bind = (value: string): string => `$${values.push(value)}`;
      const author = filter.author === undefined ? '' : `AND author = ${bind(filter.author)}`;
      const warehouse = filter.warehouse === undefined ? '' : `AND warehouse = ${bind(filter.warehouse)}`;
      return db.rows<QuoteRow>(
        `SELECT * FROM quotes
         WHERE ($1 = '' OR from_city LIKE $2 ESCAPE '\\' OR to_city LIKE $2 ESCAPE '\\' OR carriers LIKE $2 ESCAPE '\\')
           ${author} ${warehouse}
         ORDER BY id DESC LIMIT $3 OFFSET $4`,
        values,
      );
    },
  };
}

export function pgNotifications(db: PgDb): NotificationsStore {
  return {
    list: (limit = 200) =>
      db.rows<NotificationRow>(
        `SELECT n.id, n.account_id, a.name AS account_name, n.kind, n.threshold, n.balance, n.created_at
         FROM notifications n JOIN accounts a ON a.id = n.account_id ORDER BY n.id DESC LIMIT $1`,
        [limit],
      ),
  };
}

export function pgCarrierHealth(db: PgDb): CarrierHealthStore {
  // A breaker's changes come in bursts (three failures in a row); sent at once, they would run on different
  // pool connections and could commit out of order, leaving an older status as the shared one. So one write
  // per carrier at a time, and a write waiting behind it takes the carrier's latest row (older ones are moot).
  const writing = new Map<string, Promise<void>>();
  const latest = new Map<string, CarrierHealthRow>();
  const write = async (code: string): Promise<void> => {
    const row = latest.get(code);
    if (!row) return;
    latest.delete(code);
    await upsertRow(db, row);
  };
  return {
    all: () => db.rows<CarrierHealthRow>('SELECT * FROM carrier_health ORDER BY code'),
    upsert: (row) => {
      latest.set(row.code, row);
      const next = (writing.get(row.code) ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => write(row.code));
      writing.set(row.code, next);
      const forget = (): void => {
        if (writing.get(row.code) === next) writing.delete(row.code);
      };
      next.then(forget, forget);
      return next;
    },
  };
}

async function upsertRow(db: PgDb, row: CarrierHealthRow): Promise<void> {
  await db.relaxedRows(
    `INSERT INTO carrier_health (code, status, consecutive_failures, last_error, last_success_at,
                                     last_failure_at, latency_ms_median)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (code) DO UPDATE SET status = excluded.status,
           consecutive_failures = excluded.consecutive_failures, last_error = excluded.last_error,
           last_success_at = excluded.last_success_at, last_failure_at = excluded.last_failure_at,
           latency_ms_median = excluded.latency_ms_median`,
    [
      row.code,
      row.status,
      row.consecutive_failures,
      row.last_error,
      row.last_success_at,
      row.last_failure_at,
      row.latency_ms_median,
    ],
  );
}
