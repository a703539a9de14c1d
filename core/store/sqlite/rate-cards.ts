// Rate cards and their rows (migration 0006). The rows are what the parser accepted; the file itself is not
// kept. A refused file (checked before this is called) changes nothing.
//
// An import writes a card of 100,000 rows in chunks (#16 item 4: in one transaction it held the file's write
// lock 1–6 s, and every other process's write waited for it), yet readers see the old card or the new one,
// never a mix: the rows go in under a staged card that no reader lists, and one small transaction then
// retires the old version and gives the staged one its code. Retired and abandoned staged cards are deleted
// in chunks afterwards, by this import, the next one or the next start of the service.
import type { DeliveryType } from '../../contract/v1';
import type { Place, RateCardRow } from '../../ratecards/parse';
import type { ChunkOptions, RateCardRecord, RateCardServiceRow, RateCardSummary } from '../port';
import type { Db } from './open';

/** Rows per transaction of an import or a removal: about 10 ms of the write lock each (docs/reliability.md). */
export const RATE_CARD_CHUNK_ROWS = 2_000;

/**
 * Cards that are not (or no longer) a version anyone may read have a name starting with this character,
 * which no card's name can have: the contract refuses control characters (contract/operations/ratecards.ts).
 */
const HIDDEN = '\u0001';
const VISIBLE = 'substr(name, 1, 1) <> char(1)';
const STAGED = `${HIDDEN}staged by pid `;
const RETIRED = `${HIDDEN}retired`;
/** A staged card whose importer has not written a chunk for this long is abandoned, whatever its pid says. */
export const STAGED_LEASE_MS = 10 * 60 * 1000;

/** Staged cards this process is writing now: a staged card of this pid not in here was left by a failure. */
const staging = new Set<number>();

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
    `SELECT id, code FROM rate_cards WHERE ${VISIBLE} ORDER BY code`,
  );
  const byCode = db.prepare<[string], RateCardRecord>(
    `SELECT * FROM rate_cards WHERE code = ? AND ${VISIBLE}`,
  );
  const byId = db.prepare<[number], RateCardRecord>('SELECT * FROM rate_cards WHERE id = ?');
  const list = db.prepare<[], RateCardSummary>(`
    SELECT c.*, COUNT(r.line) AS rows, COALESCE(MAX(r.max_weight_grams), 0) AS max_weight_grams
    FROM rate_cards c LEFT JOIN rate_card_rows r ON r.card_id = c.id
    WHERE substr(c.name, 1, 1) <> char(1)
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
  const hidden = db.prepare<[], { id: number; name: string; created_at: string }>(
    'SELECT id, name, created_at FROM rate_cards WHERE substr(name, 1, 1) = char(1) ORDER BY id',
  );
  const insertCard = db.prepare<[string, string, number, string]>(
    'INSERT INTO rate_cards (code, name, volumetric_divisor, created_at) VALUES (?, ?, ?, ?)',
  );
  // A staged card's created_at is its importer's heartbeat until it is published.
  const heartbeat = db.prepare<[string, number]>(
    `UPDATE rate_cards SET created_at = ? WHERE id = ? AND substr(name, 1, 1) = char(1)`,
  );
  const publish = db.prepare<[string, string, number, string, number]>(
    'UPDATE rate_cards SET code = ?, name = ?, volumetric_divisor = ?, created_at = ? WHERE id = ?',
  );
  const retire = db.prepare<[string, string, number]>(
    'UPDATE rate_cards SET code = ?, name = ? WHERE id = ?',
  );
  const deleteRows = db.prepare<[number, number, number]>(`
    DELETE FROM rate_card_rows
    WHERE card_id = ? AND line IN (SELECT line FROM rate_card_rows WHERE card_id = ? LIMIT ?)`);
  const deleteCard = db.prepare<[number]>('DELETE FROM rate_cards WHERE id = ?');
  const insertRow = db.prepare(`
    INSERT INTO rate_card_rows (card_id, line, from_kind, from_value, to_kind, to_value, max_weight_grams,
      price_kopecks, days_min, days_max, delivery_type, service_code, service_name, declared_value_bp)
    VALUES (@card_id, @line, @from_kind, @from_value, @to_kind, @to_value, @max_weight_grams,
      @price_kopecks, @days_min, @days_max, @delivery_type, @service_code, @service_name, @declared_value_bp)`);

  const tx = <T>(fn: () => T): T => db.transaction(fn).immediate();

  /** Deletes one chunk of a hidden card's rows, or the card once it has none; false when it is gone. */
  function purgeChunk(id: number, chunkRows = RATE_CARD_CHUNK_ROWS): boolean {
    return tx(() => {
      if (deleteRows.run(id, id, chunkRows).changes > 0) return true;
      deleteCard.run(id);
      return false;
    });
  }

  /** Renews the staged card's heartbeat; throws if it is gone (deleted as abandoned after a long silence). */
  function keepStaged(id: number): void {
    if (heartbeat.run(new Date().toISOString(), id).changes === 0) {
      throw new Error('the rate card import was interrupted: its staged rows were removed');
    }
  }

  function purge(id: number, options: ChunkOptions): void {
    while (purgeChunk(id, options.chunkRows)) options.pause?.();
  }

  /** Hidden cards no one will publish: retired versions, and staged ones whose importer is gone. */
  function abandoned(nowMs: number): number[] {
    return hidden
      .all()
      .filter((card) => {
        if (!card.name.startsWith(STAGED)) return true;
        if (Date.parse(card.created_at) < nowMs - STAGED_LEASE_MS) return true;
        const pid = Number(card.name.slice(STAGED.length));
        return pid === process.pid ? !staging.has(card.id) : !processAlive(pid);
      })
      .map((card) => card.id);
  }

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
        return card && !card.name.startsWith(HIDDEN) ? { card, rows: rows.all(id).map(toRow) } : undefined;
      })();
    },
    /**
     * Writes the card's rows in chunks under a staged card, then publishes it in one small transaction,
     * retiring a card of the same code. Returns its id and whether one was replaced. Not inside a caller's
     * transaction: each chunk is its own. A failure (or a crash) leaves the old card as it was.
     */
    replace(
      card: Omit<RateCardRecord, 'id'>,
      cardRows: readonly RateCardRow[],
      options: ChunkOptions = {},
    ): { id: number; replaced: boolean } {
      const chunkRows = options.chunkRows ?? RATE_CARD_CHUNK_ROWS;
      for (const id of abandoned(Date.now())) purgeQuietly(() => purge(id, options));
      const id = tx(() =>
        Number(
          insertCard.run(
            stagedCode(),
            `${STAGED}${process.pid}`,
            card.volumetric_divisor,
            new Date().toISOString(),
          ).lastInsertRowid,
        ),
      );
      staging.add(id);
      try {
        for (let start = 0; start < cardRows.length; start += chunkRows) {
          if (start > 0) options.pause?.();
          tx(() => {
            keepStaged(id);
            for (const row of cardRows.slice(start, start + chunkRows)) {
              insertRow.run({ card_id: id, ...fromRow(row) });
            }
          });
        }
        const old = tx(() => {
          keepStaged(id);
          const current = byCode.get(card.code);
          if (current) retire.run(`--retired-${current.id}`, RETIRED, current.id);
          publish.run(card.code, card.name, card.volumetric_divisor, card.created_at, id);
          return current;
        });
        staging.delete(id);
        if (old) purgeQuietly(() => purge(old.id, options));
        return { id, replaced: old !== undefined };
      } catch (error) {
        staging.delete(id);
        purgeQuietly(() => purge(id, options));
        throw error;
      }
    },
    /** Retires a card in one small transaction, then deletes its rows in chunks; the card as it was, or undefined. */
    remove(code: string, options: ChunkOptions = {}): RateCardRecord | undefined {
      const card = tx(() => {
        const current = byCode.get(code);
        if (current) retire.run(`--retired-${current.id}`, RETIRED, current.id);
        return current;
      });
      if (card) purgeQuietly(() => purge(card.id, options));
      return card;
    },
    /** Hidden cards left by a crash or a failure, for the service to delete in the background. */
    abandoned: (nowMs: number = Date.now()): number[] => abandoned(nowMs),
    /** Deletes one chunk of a hidden card; true while rows are left. */
    purgeChunk: (id: number): boolean => purgeChunk(id),
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

/** A code no card of a user has: `--` and random letters (the code must still be unique and pass the CHECK). */
function stagedCode(): string {
  return `--staged-${Math.random().toString(36).slice(2, 14)}`;
}

/** The rows of a hidden card are deleted later (next import, next start) if they cannot be now (busy file). */
function purgeQuietly(run: () => void): void {
  try {
    run();
  } catch {
    // Hidden cards are invisible to readers; the next import or start of the service deletes them.
  }
}

/** Same host by construction: SQLite's WAL works only between processes of one machine. */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
