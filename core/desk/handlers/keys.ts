// Settings → API keys: core/admin's key operations; import takes a pasted secret or an export file's text.
import { createKey, exportKeys, importExport, importKey, listKeys, revokeKey } from '../../admin/keys';
import { AdminError } from '../../admin/errors';
import type { DeskContext, HandlersOf } from '../context';

function parseDocument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AdminError('invalid', 'This is not a RateDesk key export file (it is not JSON).');
  }
}

export function keyHandlers(
  ctx: DeskContext,
): HandlersOf<'keys:list' | 'keys:create' | 'keys:import' | 'keys:revoke' | 'keys:export'> {
  const { store } = ctx.service;
  return {
    'keys:list': async (input) => listKeys(store, ctx.clock, input),
    'keys:create': async (input) => createKey(store, ctx.clock, input),
    'keys:import': async (input) => {
      if ('document' in input) {
        return { ...importExport(store, ctx.clock, parseDocument(input.document)), key: null };
      }
      const key = importKey(store, ctx.clock, input);
      return { imported: 1, skipped: 0, accounts_created: [], key };
    },
    'keys:revoke': async (input) => revokeKey(store, ctx.clock, input),
    'keys:export': async (input) => {
      const doc = exportKeys(store, ctx.clock, input);
      const scope = input?.account ? input.account : 'all';
      return {
        filename: `ratedesk-keys-${scope}-${doc.exported_at.slice(0, 10)}.json`,
        json: `${JSON.stringify(doc, null, 2)}\n`,
      };
    },
  };
}
