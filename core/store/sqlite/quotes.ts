import type { NewQuote, QuoteFilter, QuoteRow } from '../port';
import type { Db } from './open';

type SearchParams = { text: string; like: string; limit: number; offset: number } & QuoteFilter;

export function quotesRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO quotes (request_id, source, created_at, from_city, to_city, weight_grams, cheapest_kopecks,
                        carriers, sandbox, shipment_json, result_json, author, warehouse)
    VALUES (@request_id, @source, @created_at, @from_city, @to_city, @weight_grams, @cheapest_kopecks,
            @carriers, @sandbox, @shipment_json, @result_json, @author, @warehouse) RETURNING id`);
  // One statement per combination of filters given, so a filter by author or warehouse reads its index.
  const searches = new Map<string, ReturnType<typeof prepareSearch>>();
  const prepareSearch = (author: boolean, warehouse: boolean) =>
    db.prepare<SearchParams, QuoteRow>(`
      SELECT * FROM quotes
      WHERE (@text = '' OR from_city LIKE @like ESCAPE '\\' OR to_city LIKE @like ESCAPE '\\'
             OR carriers LIKE @like ESCAPE '\\')
        ${author ? 'AND author = @author' : ''} ${warehouse ? 'AND warehouse = @warehouse' : ''}
      ORDER BY id DESC LIMIT @limit OFFSET @offset`);
  const byId = db.prepare<[number], QuoteRow>('SELECT * FROM quotes WHERE id = ?');
  return {
    insert: (q: NewQuote): number => (insert.get(q) as { id: number }).id,
    byId: (id: number): QuoteRow | undefined => byId.get(id),
    search(text: string, limit = 100, offset = 0, filter: QuoteFilter = {}): QuoteRow[] {
      const t = text.trim();
      const like = `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const author = filter.author !== undefined;
      const warehouse = filter.warehouse !== undefined;
      const which = `${author}/${warehouse}`;
      let search = searches.get(which);
      if (!search) searches.set(which, (search = prepareSearch(author, warehouse)));
      return search.all({
        text: t,
        like,
        limit,
        offset,
        ...(author ? { author: filter.author } : {}),
        ...(warehouse ? { warehouse: filter.warehouse } : {}),
      });
    },
  };
}

export type QuotesRepo = ReturnType<typeof quotesRepo>;
