// Rate cards and their rows (migration 0006). The rows are what the parser accepted; the file itself is not
// kept. replace() swaps a whole card in one transaction, so a quote sees the old card or the new one, never a
// mix, and a refused file (checked before this is called) changes nothing.
import type { DeliveryType } from '../contract/v1';
import type { Place, RateCardRow } from '../ratecards/parse';
import type { Db } from './open';

export interface RateCardRecord {
  id: number;
  code: string;
  name: string;
  volumetric_divisor: number;
  created_at: string;
}

export interface RateCardSummary extends RateCardRecord {
  rows: number;
  max_weight_grams: number;
}

export interface RateCardServiceRow {
  key: string;
  service_name: string | null;
  delivery_type: DeliveryType;
}

interface StoredRow {
  line: number;
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

export function rateCardsRepo(db: Db) {
  const versions = db.prepare<[], { id: number; code: string }>(
    'SELECT id, code FROM rate_cards ORDER BY code',
  );
  const byCode = db.prepare<[string], RateCardRecord>('SELECT * FROM rate_cards WHERE code = ?');
  const byId = db.prepare<[number], RateCardRecord>('SELECT * FROM rate_cards WHERE id = ?');
  const list = db.prepare<[], RateCardSummary>(`
    SELECT c.*, COUNT(r.line) AS rows, COALESCE(MAX(r.max_weight_grams), 0) AS max_weight_grams
    FROM rate_cards c LEFT JOIN rate_card_rows r ON r.card_id = c.id
    GROUP BY c.id ORDER BY c.code`);
  // SQLite takes the bare columns of an aggregate query from the row MIN() picked: each service's first row.
  const services = db.prepare<[number], RateCardServiceRow & { first: number }>(`
    SELECT COALESCE(service_code, delivery_type) AS key, MIN(line) AS first, service_name, delivery_type
    FROM rate_card_rows WHERE card_id = ? GROUP BY key ORDER BY first`);
  const rows = db.prepare<[number], StoredRow>(
    `SELECT line, from_kind, from_value, to_kind, to_value, max_weight_grams, price_kopecks, days_min,
       days_max, delivery_type, service_code, service_name, declared_value_bp
     FROM rate_card_rows WHERE card_id = ? ORDER BY line`,
  );
  const deleteCard = db.prepare('DELETE FROM rate_cards WHERE code = ?');
  const insertCard = db.prepare<[string, string, number, string]>(
    'INSERT INTO rate_cards (code, name, volumetric_divisor, created_at) VALUES (?, ?, ?, ?)',
  );
  const insertRow = db.prepare(`
    INSERT INTO rate_card_rows (card_id, line, from_kind, from_value, to_kind, to_value, max_weight_grams,
      price_kopecks, days_min, days_max, delivery_type, service_code, service_name, declared_value_bp)
    VALUES (@card_id, @line, @from_kind, @from_value, @to_kind, @to_value, @max_weight_grams,
      @price_kopecks, @days_min, @days_max, @delivery_type, @service_code, @service_name, @declared_value_bp)`);

  return {
    /** Every card's id and code: cheap, so the running service can ask after every change of the file. */
    versions: (): Array<{ id: number; code: string }> => versions.all(),
    byCode: (code: string): RateCardRecord | undefined => byCode.get(code),
    list: (): RateCardSummary[] => list.all(),
    /** A card's services in the order they first appear in its file. */
    services: (id: number): RateCardServiceRow[] => services.all(id).map(({ first: _first, ...s }) => s),
    /** A card with its rows; undefined when it was removed or replaced meanwhile. */
    load(id: number): { card: RateCardRecord; rows: RateCardRow[] } | undefined {
      return db.transaction(() => {
        const card = byId.get(id);
        return card ? { card, rows: rows.all(id).map(toRow) } : undefined;
      })();
    },
    /** Inserts the card, deleting any card of the same code first. Returns its id and whether one was replaced. */
    replace(
      card: Omit<RateCardRecord, 'id'>,
      cardRows: readonly RateCardRow[],
    ): { id: number; replaced: boolean } {
      return db.transaction(() => {
        const replaced = deleteCard.run(card.code).changes > 0;
        const id = Number(
          insertCard.run(card.code, card.name, card.volumetric_divisor, card.created_at).lastInsertRowid,
        );
        for (const row of cardRows) insertRow.run({ card_id: id, ...fromRow(row) });
        return { id, replaced };
      })();
    },
    /** Deletes a card and its rows; the card as it was, or undefined when there was none. */
    remove(code: string): RateCardRecord | undefined {
      return db.transaction(() => {
        const card = byCode.get(code);
        if (card) deleteCard.run(code);
        return card;
      })();
    },
  };
}

export type RateCardsRepo = ReturnType<typeof rateCardsRepo>;

function fromRow(row: RateCardRow): StoredRow {
  return {
    line: row.line,
    from_kind: row.from.kind,
    from_value: placeValue(row.from),
    to_kind: row.to.kind,
    to_value: placeValue(row.to),
    max_weight_grams: row.maxWeightGrams,
    price_kopecks: row.priceKopecks,
    days_min: row.daysMin,
    days_max: row.daysMax,
    delivery_type: row.deliveryType,
    service_code: row.serviceCode,
    service_name: row.serviceName,
    declared_value_bp: row.declaredValueBp,
  };
}

function toRow(r: StoredRow): RateCardRow {
  return {
    line: r.line,
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
