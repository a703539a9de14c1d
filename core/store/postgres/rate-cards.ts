// Rate cards on the company database. Unlike the data file, PostgreSQL lets a card of 100,000 rows go in as
// one transaction without stopping anyone: readers keep seeing the old card (MVCC) and other writers take
// other rows' locks. So a replace is one transaction (delete the old version, insert the new under a new
// id), a crash rolls it back whole, and nothing is ever left staged: purgeAbandoned has nothing to do. Two
// imports of one code at once take turns on an advisory lock of that code.
import type { DeliveryType } from '../../contract/v1';
import type { Place, RateCardRow } from '../../ratecards/parse';
import type { RateCardRecord, RateCardServiceRow, RateCardSummary, RateCardsStore } from '../port';
import type { PgDb } from './pool';

/** Rows per INSERT statement (bounded so one message stays a few MB). */
const ROWS_PER_STATEMENT = 10_000;

const CARD_COLUMNS = 'c.id, c.code, c.name, c.volumetric_divisor, c.created_at';

interface LoadedRow {
  id: number;
  code: string;
  name: string;
  volumetric_divisor: number;
  created_at: string;
  line: number | null;
  from_kind: Place['kind'];
  from_value: string;
  to_kind: Place['kind'];
  to_value: string;
  max_weight_grams: number;
  price_kopecks: number;
  days_min: number;
  days_max: number;
  delivery_type: DeliveryType;
  service_code: string | null;
  service_name: string | null;
  declared_value_bp: number;
}

export function pgRateCards(db: PgDb): RateCardsStore {
  return {
    versions: () => db.rows<{ id: number; code: string }>('SELECT id, code FROM rate_cards ORDER BY code'),
    byCode: (code) =>
      db.first<RateCardRecord>(`SELECT ${CARD_COLUMNS} FROM rate_cards c WHERE c.code = $1`, [code]),
    list: () =>
      db.rows<RateCardSummary>(`
        SELECT ${CARD_COLUMNS}, COUNT(r.line) AS rows, COALESCE(MAX(r.max_weight_grams), 0) AS max_weight_grams
        FROM rate_cards c LEFT JOIN rate_card_rows r ON r.card_id = c.id
        GROUP BY c.id ORDER BY c.code`),
    services: (id) =>
      db.rows<RateCardServiceRow>(
        `SELECT key, service_name, delivery_type FROM (
           SELECT DISTINCT ON (key) key, line, service_name, delivery_type FROM (
             SELECT COALESCE(service_code, delivery_type) AS key, line, service_name, delivery_type
             FROM rate_card_rows WHERE card_id = $1) s
           ORDER BY key, line) firsts
         ORDER BY line`,
        [id],
      ),
    async load(id) {
      // One statement, one snapshot: the card and its rows as of the same moment.
      const rows = await db.rows<LoadedRow>(
        `SELECT ${CARD_COLUMNS}, r.line, r.from_kind, r.from_value, r.to_kind, r.to_value, r.max_weight_grams,
                r.price_kopecks, r.days_min, r.days_max, r.delivery_type, r.service_code, r.service_name,
                r.declared_value_bp
         FROM rate_cards c LEFT JOIN rate_card_rows r ON r.card_id = c.id
         WHERE c.id = $1 ORDER BY r.line`,
        [id],
      );
      const first = rows[0];
      if (!first) return undefined;
      const card: RateCardRecord = {
        id: first.id,
        code: first.code,
        name: first.name,
        volumetric_divisor: first.volumetric_divisor,
        created_at: first.created_at,
      };
      return { card, rows: rows.filter((r) => r.line !== null).map(toRow) };
    },
    replace: (card, cardRows) =>
      db.tx(async (c) => {
        await c.query(`SELECT pg_advisory_xact_lock(hashtext('ratedesk.rate_card:' || $1))`, [card.code]);
        const old = await c.query('DELETE FROM rate_cards WHERE code = $1 RETURNING id', [card.code]);
        const { id } = (
          await c.query<{ id: number }>(
            `INSERT INTO rate_cards (code, name, volumetric_divisor, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
            [card.code, card.name, card.volumetric_divisor, card.created_at],
          )
        ).rows[0]!;
        for (let i = 0; i < cardRows.length; i += ROWS_PER_STATEMENT) {
          const chunk = cardRows.slice(i, i + ROWS_PER_STATEMENT);
          const col = <T>(f: (r: RateCardRow) => T): T[] => chunk.map(f);
          await c.query(
            `INSERT INTO rate_card_rows (card_id, line, from_kind, from_value, to_kind, to_value, max_weight_grams,
               price_kopecks, days_min, days_max, delivery_type, service_code, service_name, declared_value_bp)
             SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
               $8::bigint[], $9::int[], $10::int[], $11::text[], $12::text[], $13::text[], $14::int[])`,
            [
              id,
              col((r) => r.line),
              col((r) => r.from.kind),
              col((r) => placeValue(r.from)),
              col((r) => r.to.kind),
              col((r) => placeValue(r.to)),
              col((r) => r.maxWeightGrams),
              col((r) => r.priceKopecks),
              col((r) => r.daysMin),
              col((r) => r.daysMax),
              col((r) => r.deliveryType),
              col((r) => r.serviceCode),
              col((r) => r.serviceName),
              col((r) => r.declaredValueBp),
            ],
          );
        }
        return { id, replaced: (old.rowCount ?? 0) > 0 };
      }),
    remove: (code) =>
      db.tx(async (c) => {
        await c.query(`SELECT pg_advisory_xact_lock(hashtext('ratedesk.rate_card:' || $1))`, [code]);
        return (
          await c.query<RateCardRecord>(
            'DELETE FROM rate_cards WHERE code = $1 RETURNING id, code, name, volumetric_divisor, created_at',
            [code],
          )
        ).rows[0];
      }),
    purgeAbandoned: () => Promise.resolve(),
  };
}

function toRow(r: LoadedRow): RateCardRow {
  return {
    line: r.line!,
    from: toPlace(r.from_kind, r.from_value),
    to: toPlace(r.to_kind, r.to_value),
    maxWeightGrams: r.max_weight_grams,
    priceKopecks: r.price_kopecks,
    daysMin: r.days_min,
    daysMax: r.days_max,
    deliveryType: r.delivery_type,
    serviceCode: r.service_code,
    serviceName: r.service_name,
    declaredValueBp: r.declared_value_bp,
  };
}

function placeValue(p: Place): string {
  return p.kind === 'any' ? '' : p.kind === 'prefix' ? p.prefix : p.name;
}

function toPlace(kind: Place['kind'], value: string): Place {
  if (kind === 'prefix') return { kind, prefix: value };
  if (kind === 'city') return { kind, name: value };
  return { kind: 'any' };
}
