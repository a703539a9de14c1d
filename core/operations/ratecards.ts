// Rate cards (#10 item 2): list, check, import, remove. Store operations, so the admin CLI and the desk run the
// same ones; the running service picks a change up on its next quote (core/ratecards/carriers.ts).
import { CARRIER_CODES } from '../carriers/types';
import {
  describeRateCardProblems,
  type RateCardCheck,
  type RateCardView,
} from '../contract/operations/ratecards';
import { cityKey } from '../ratecards/cities';
import { parseRateCard, parseRateCardFile, serviceKey } from '../ratecards/parse';
import type { RateCardSummary, Store } from '../store/port';
import type { AreaOperations } from './define';
import { OperationError } from './errors';
import { templateCsv, templateXlsx } from './ratecard-template';

const BUILT_IN: ReadonlySet<string> = new Set(CARRIER_CODES);

async function view(store: Store, card: RateCardSummary): Promise<RateCardView> {
  const [healthRows, services] = await Promise.all([
    store.carrierHealth.all(),
    store.rateCards.services(card.id),
  ]);
  const health = healthRows.find((h) => h.code === card.code);
  return {
    code: card.code,
    name: card.name,
    volumetric_divisor: card.volumetric_divisor,
    rows: card.rows,
    services: services.map((s) => ({
      service_code: `${card.code}:${s.key}`,
      service_name: s.service_name ?? card.name,
      delivery_type: s.delivery_type,
    })),
    max_weight_grams: card.max_weight_grams,
    created_at: card.created_at,
    status: health?.status ?? 'unknown',
  };
}

async function summary(store: Store, code: string): Promise<RateCardSummary> {
  const card = (await store.rateCards.list()).find((c) => c.code === code);
  if (!card) throw new OperationError('not_found', `No rate card ${JSON.stringify(code)}.`);
  return card;
}

/** The text (CLI, tests) or the file's bytes (the desk: CSV or an Excel workbook); the schema wants one. */
function parse(content: { csv?: string | undefined; file?: string | undefined }) {
  const options = { cityKey: (name: string) => cityKey(name) };
  if (content.file !== undefined) return parseRateCardFile(Buffer.from(content.file, 'base64'), options);
  return parseRateCard(content.csv ?? '', options);
}

type RateCardOperation =
  'ratecards:list' | 'ratecards:check' | 'ratecards:import' | 'ratecards:remove' | 'ratecards:template';

export const rateCardOperations = {
  'ratecards:list': {
    needs: 'store',
    run: async ({ store }) => Promise.all((await store.rateCards.list()).map((c) => view(store, c))),
  },

  'ratecards:check': {
    needs: 'store',
    run: (_ctx, content): RateCardCheck => {
      const { rows, problems, moreProblems, badLines } = parse(content);
      return {
        rows: rows.length,
        services: new Set(rows.map(serviceKey)).size,
        problems,
        more_problems: moreProblems,
        bad_lines: badLines,
      };
    },
  },

  /**
   * All or nothing: a file with any problem is refused whole (its first problems in the message, one line
   * each, and how many more). The rows are written in chunks under a staged card and published in one small
   * transaction that also retires a card of the same code (store/sqlite/rate-cards.ts): quotes see the old card or the
   * new one.
   */
  'ratecards:import': {
    needs: 'store',
    run: async (ctx, { code, name, csv, file, volumetric_divisor }) => {
      const { store, clock } = ctx;
      if (BUILT_IN.has(code)) {
        throw new OperationError(
          'conflict',
          `${JSON.stringify(code)} is the code of a built-in carrier; choose another code for the rate card.`,
        );
      }
      const { rows, problems, moreProblems, badLines } = parse({ csv, file });
      if (problems.length > 0) {
        throw new OperationError(
          'invalid',
          describeRateCardProblems({ problems, more_problems: moreProblems, bad_lines: badLines }),
        );
      }
      const { replaced } = await store.rateCards.replace(
        { code, name, volumetric_divisor, created_at: clock.now().toISOString() },
        rows,
      );
      return { ...(await view(store, await summary(store, code))), replaced };
    },
  },

  'ratecards:remove': {
    needs: 'store',
    run: async (ctx, { code }) => {
      const removed = await ctx.store.rateCards.remove(code);
      if (!removed) {
        const hint = BUILT_IN.has(code) ? ' Built-in carriers are switched off, not removed.' : '';
        throw new OperationError('not_found', `No rate card ${JSON.stringify(code)}.${hint}`);
      }
      return { code: removed.code, name: removed.name };
    },
  },

  'ratecards:template': {
    needs: 'store',
    run: async ({ store, clock }, { format }) => {
      const language = (await store.settings.get('ui.language')) === 'en' ? 'en' : 'ru';
      if (format === 'csv') {
        return {
          filename: 'ratecard-template.csv',
          mime: 'text/csv;charset=utf-8',
          base64: Buffer.from(templateCsv(language), 'utf8').toString('base64'),
        };
      }
      return {
        filename: 'ratecard-template.xlsx',
        mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        base64: templateXlsx(language, clock.now()).toString('base64'),
      };
    },
  },
} satisfies AreaOperations<RateCardOperation>;
