// server-key new | check | rotate | forget: the key that seals carrier secrets where no keychain exists
// (docs/operations.md, "The server key"). The key itself is read from a file or the environment only, never
// from an argument, and never printed except by `new` without --file (to be piped into a secret manager).
import { closeSync, fchmodSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { HOW_TO_GIVE_A_KEY, newServerKeyText, readServerKeyFile } from '../../settings/server-key';
import {
  forgetServerKey,
  rotateServerKey,
  SecretCensus,
  type StoredSecret,
} from '../../settings/server-key-maintenance';
import { prepareSecrets } from '../../settings/secrets';
import { serverSecrets } from '../../settings/server-secrets';
import { systemWallClock } from '../../operations/context';
import { InputError, UsageError } from '../admin-io';
import type { Command, Context } from './command';

/**
 * A new file only, created readable by its owner alone: an existing key file is never overwritten, since
 * the secrets sealed with the key it holds would be lost with it.
 */
function writeNewKeyFile(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new InputError(
        `${path} already exists: a key file is never overwritten (the secrets sealed with its key would be lost). Choose another name.`,
      );
    }
    throw new InputError(`Cannot write ${path}: ${code ?? String(error)}.`);
  }
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const now = (ctx: Context): string => (ctx.io.clock ?? systemWallClock).now().toISOString();

const describe = (s: StoredSecret): string =>
  `${s.name}: ${s.sealedWith}${s.opened ? '' : ' (does not open here)'}`;

async function census(ctx: Context): Promise<StoredSecret[]> {
  const counted = new SecretCensus(ctx.secrets());
  return ctx.withSecrets(counted, async (store) => {
    // The start check as every command runs it: a wrong key stops here with its message.
    await prepareSecrets(store.settings, counted, now(ctx));
    return (await counted.take(store.settings)).secrets;
  });
}

export const serverKeyCommands: Record<string, Command> = {
  'server-key new': {
    usage: 'server-key new [--file F]',
    args: [0, 0],
    options: ['file'],
    run: (ctx) => {
      const text = newServerKeyText();
      const file = ctx.values.file;
      if (file === undefined) return { json: { key: text.trim() }, text };
      const path = resolve(file);
      writeNewKeyFile(path, text);
      return {
        json: { file: path },
        text:
          `Wrote a new server key to ${path} (mode 0600). Give it to serve and admin with ` +
          `--server-key-file ${path}, and keep a copy apart from the database backups: without it the ` +
          'carrier secrets cannot be opened.\n',
      };
    },
  },
  'server-key check': {
    usage: 'server-key check',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      if (ctx.secrets().key === undefined) {
        throw new UsageError(`server-key check needs the key to check: give ${HOW_TO_GIVE_A_KEY}.`);
      }
      const secrets = await census(ctx);
      const unopened = secrets.filter((s) => !s.opened);
      const summary =
        `The server key opens the stored secrets: ${secrets.length - unopened.length} of ` +
        `${secrets.length} open.`;
      return {
        json: { ok: unopened.length === 0, secrets },
        text: [summary, ...secrets.map((s) => `  ${describe(s)}`)].join('\n') + '\n',
        exitCode: unopened.length === 0 ? 0 : 1,
      };
    },
  },
  'server-key rotate': {
    usage: 'server-key rotate --new-key-file F',
    args: [0, 0],
    options: ['new-key-file'],
    run: async (ctx) => {
      const file = ctx.values['new-key-file'];
      if (file === undefined)
        throw new UsageError('--new-key-file is required. Usage: server-key rotate --new-key-file F');
      const current = ctx.secrets();
      if (current.key === undefined) {
        throw new UsageError(`server-key rotate needs the current key as well: give ${HOW_TO_GIVE_A_KEY}.`);
      }
      const next = readServerKeyFile(resolve(file));
      const nextSecrets = serverSecrets(next);
      const counted = new SecretCensus(current);
      const at = now(ctx);
      const { resealed } = await ctx.withSecrets(counted, async (from) => {
        await prepareSecrets(from.settings, counted, at);
        return ctx.withSecrets(nextSecrets, (to) =>
          rotateServerKey(
            { settings: from.settings, census: counted },
            { settings: to.settings, secrets: nextSecrets },
            next,
            at,
          ),
        );
      });
      return {
        json: { resealed },
        text:
          `Resealed ${resealed.length} carrier secrets with the new key; the old key no longer opens them. ` +
          'Restart every serve with the new key.\n',
      };
    },
  },
  'server-key forget': {
    usage: 'server-key forget',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const given = ctx.secrets().key;
      const counted = new SecretCensus(serverSecrets(undefined));
      const { cleared } = await ctx.withSecrets(counted, (store) =>
        forgetServerKey(store.settings, counted, given, now(ctx)),
      );
      return {
        json: { cleared },
        text:
          `Cleared ${cleared.length} carrier secrets sealed with the lost key${cleared.length ? `: ${cleared.join(', ')}` : ''}. ` +
          'The next start with a key takes it; set the secrets again (carriers secret CODE).\n',
      };
    },
  },
};
