import type { NewQuote, QuoteRow } from '../port';
import type { Db } from './open';

export function quotesRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO quotes (request_id, source, created_at, from_city, to_city, weight_grams, cheapest_kopecks,
                        carriers, sandbox, shipment_json, result_json)
    VALUES (@request_id, @source, @created_at, @from_city, @to_city, @weight_grams, @cheapest_kopecks,
            @carriers, @sandbox, @shipment_json, @result_json) RETURNING id`);
  const search = db.prepare<{ text: string; like: string; limit: number; offset: number }, QuoteRow>(`
    SELECT * FROM quotes
    WHERE (@text = '' OR from_city LIKE @like ESCAPE '\\' OR to_city LIKE @like ESCAPE '\\'
           OR carriers LIKE @like ESCAPE '\\')
    ORDER BY id DESC LIMIT @limit OFFSET @offset`);
  const byId = db.prepare<[number], QuoteRow>('SELECT * FROM quotes WHERE id = ?');
  return {
    insert: (q: NewQuote): number => (insert.get(q) as { id: number }).id,
    byId: (id: number): QuoteRow | undefined => byId.get(id),
    search(text: string, limit = 100, offset = 0): QuoteRow[] {
      const t = text.trim();
      const like = `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return search.all({ text: t, like, limit, offset });
    },
  };
}

export type QuotesRepo = ReturnType<typeof quotesRepo>;
