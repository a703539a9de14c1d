// The dependency rule of design.md is enforced by eslint.config.js; these cases prove each rule fires
// (and does not fire on what is allowed), so a config edit cannot silently switch a boundary off.
import { ESLint } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const eslint = new ESLint({ cwd: root });

/** Rule ids of the errors ESLint reports for `code` as if it lived at `file` (relative to the root). */
async function errors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  if (!result) throw new Error('no lint result');
  // A fatal parse error or an "ignored file" warning would make a passing case meaningless.
  expect(result.messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
  return result.messages.filter((m) => m.severity === 2).map((m) => m.ruleId ?? '');
}

const RESTRICTED = '@typescript-eslint/no-restricted-imports';

describe('core/ imports nothing above it', () => {
  it.each([
    ['electron', "import { app } from 'electron';\nexport const a = app;\n"],
    [
      'a type from electron',
      "import type { BrowserWindow } from 'electron';\nexport type W = BrowserWindow;\n",
    ],
    ['electron/main', "import { ipcMain } from 'electron/main';\nexport const a = ipcMain;\n"],
    ['react', "import { useState } from 'react';\nexport const a = useState;\n"],
    ['react-dom/client', "import { createRoot } from 'react-dom/client';\nexport const a = createRoot;\n"],
    ['renderer/ by a relative path', "import { App } from '../renderer/src/app';\nexport const a = App;\n"],
    [
      'electron/ by a relative path',
      "import { guard } from '../electron/main/guards';\nexport const a = guard;\n",
    ],
    ['a re-export from renderer/', "export { thing } from '../renderer/src/thing';\n"],
  ])('rejects %s', async (_label, code) => {
    expect(await errors('core/api/example.ts', code)).toEqual([RESTRICTED]);
  });

  it('allows its own modules, zod and node builtins', async () => {
    const code =
      "import { z } from 'zod';\nimport { readFileSync } from 'node:fs';\n" +
      "import { Shipment } from './contract/v1';\nexport const a = [z, readFileSync, Shipment];\n";
    expect(await errors('core/api/example.ts', code)).toEqual([]);
  });
});

describe('renderer/ reaches only the contracts', () => {
  it.each([
    ['node:fs', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n"],
    ['a bare builtin', "import path from 'path';\nexport const a = path;\n"],
    ['electron', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n"],
    ['better-sqlite3', "import Database from 'better-sqlite3';\nexport const a = Database;\n"],
    ['a core runtime module', "import { openStore } from '../core/store';\nexport const a = openStore;\n"],
    [
      'core/rating',
      "import { aggregate } from '../../core/rating/aggregator';\nexport const a = aggregate;\n",
    ],
    [
      'core/desk (not contract)',
      "import { handlers } from '../core/desk/handlers';\nexport const a = handlers;\n",
    ],
  ])('rejects %s', async (_label, code) => {
    expect(await errors('renderer/src/features/quote/Quote.tsx', code)).toEqual([RESTRICTED]);
  });

  it.each([
    [
      'a type from core/contract',
      "import type { Shipment } from '../core/contract/v1';\nexport type S = Shipment;\n",
    ],
    [
      'a schema from core/contract',
      "import { Shipment } from '../../core/contract/v1';\nexport const s = Shipment;\n",
    ],
    ['core/desk/contract', "import { channels } from '../core/desk/contract';\nexport const c = channels;\n"],
    [
      'a type from a core runtime module',
      "import type { Store } from '../core/store';\nexport type S = Store;\n",
    ],
    ['react', "import { useState } from 'react';\nexport const a = useState;\n"],
  ])('allows %s', async (_label, code) => {
    expect(await errors('renderer/src/features/quote/Quote.tsx', code)).toEqual([]);
  });
});

describe('shell.openExternal only in electron/main/open-external.ts', () => {
  const code = "import { shell } from 'electron';\nexport const go = (u: string) => shell.openExternal(u);\n";

  it('is rejected elsewhere, including through destructuring', async () => {
    expect(await errors('electron/main/window.ts', code)).toEqual(['no-restricted-syntax']);
    const destructured =
      "import { shell } from 'electron';\nconst { openExternal } = shell;\nexport const go = openExternal;\n";
    expect(await errors('electron/main/menu.ts', destructured)).toEqual(['no-restricted-syntax']);
  });

  it('is allowed in the one audited module', async () => {
    expect(await errors('electron/main/open-external.ts', code)).toEqual([]);
  });
});

describe('general rules', () => {
  it('rejects explicit any and value imports used only as types', async () => {
    expect(await errors('core/x.ts', 'export const f = (v: any) => v;\n')).toEqual([
      '@typescript-eslint/no-explicit-any',
    ]);
    const code = "import { Shipment } from './lint/contract/v1';\nexport type S = Shipment;\n";
    expect(await errors('core/x.ts', code)).toEqual(['@typescript-eslint/consistent-type-imports']);
  });
});

// The layers inside core (#18 item 4, docs/architecture.md "Layers"). Each zone is tried from a file at the
// top of its folder and from one a folder deeper, since the config generates its zones per depth.
describe('only core/store/<impl> imports a database driver', () => {
  it.each([
    ['core/service.ts', "import Database from 'better-sqlite3';\nexport const a = Database;\n"],
    ['core/api/runtime.ts', "import type Database from 'better-sqlite3';\nexport type D = Database;\n"],
    [
      'core/carriers/fivepost/catalogue-store.ts',
      "import Database from 'better-sqlite3';\nexport const a = Database;\n",
    ],
    [
      'core/rating/example.ts',
      "import { DatabaseSync } from 'node:sqlite';\nexport const a = DatabaseSync;\n",
    ],
    ['core/contract/example.ts', "import pg from 'pg';\nexport const a = pg;\n"],
    ['electron/main/example.ts', "import Database from 'better-sqlite3';\nexport const a = Database;\n"],
    [
      'scripts/example.ts',
      "import { Statement } from 'better-sqlite3/lib/statement';\nexport const a = Statement;\n",
    ],
    ['test/integration/example.test.ts', "import postgres from 'postgres';\nexport const a = postgres;\n"],
    // The port and the composition beside it stay driver-free: only an implementation's folder has one.
    ['core/store/port.ts', "import Database from 'better-sqlite3';\nexport const a = Database;\n"],
    ['core/store/data-folder.ts', "import pg from 'pg';\nexport const a = pg;\n"],
  ])('rejects one in %s', async (file, code) => {
    expect(await errors(file, code)).toEqual([RESTRICTED]);
  });

  it.each([
    ['core/store/sqlite/open.ts', "import Database from 'better-sqlite3';\nexport const a = Database;\n"],
    ['core/store/postgres/open.ts', "import pg from 'pg';\nexport const a = pg;\n"],
    // An entry of today's allow-list (the SQLite implementation's own fixture).
    [
      'test/integration/store/migration-history.test.ts',
      "import Database from 'better-sqlite3';\nexport const a = Database;\n",
    ],
  ])('allows one in %s', async (file, code) => {
    expect(await errors(file, code)).toEqual([]);
  });

  it('allows a module of ours whose name only looks like a driver', async () => {
    // The service will open a store implementation by its folder's name.
    const code = "import { openStore } from './store/postgres';\nexport const a = openStore;\n";
    expect(await errors('core/service.ts', code)).toEqual([]);
  });

  it('keeps the host rule in every zone (one config object per zone must not drop it)', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    for (const file of [
      'core/store/port.ts',
      'core/store/sqlite/open.ts',
      'core/rating/aggregator.ts',
      'core/carriers/cdek/adapter.ts',
      'core/ratecards/carriers.ts',
      'core/contract/operations/keys.ts',
      'core/operations/settings.ts',
    ]) {
      expect(await errors(file, code), file).toEqual([RESTRICTED]);
    }
  });
});

describe('core/contract is zod only', () => {
  it.each([
    ['core/contract/v1.ts', "import { createHash } from 'node:crypto';\nexport const a = createHash;\n"],
    ['core/contract/v1.ts', "import { request } from 'undici';\nexport const a = request;\n"],
    ['core/contract/v1.ts', "import { newRequestId } from '../util/ids';\nexport const a = newRequestId;\n"],
    ['core/contract/v1.ts', "import type { Store } from '../store';\nexport type S = Store;\n"],
    [
      'core/contract/operations/keys.ts',
      "import { isLoopback } from '../../settings/loopback';\nexport const a = isLoopback;\n",
    ],
  ])('rejects in %s: %s', async (file, code) => {
    expect(await errors(file, code)).toEqual([RESTRICTED]);
  });

  it('allows zod and its own modules, from either depth', async () => {
    const top =
      "import { z } from 'zod';\nimport { LIMITS } from './limits';\nexport const a = [z, LIMITS];\n";
    expect(await errors('core/contract/v1.ts', top)).toEqual([]);
    const deeper =
      "import { z } from 'zod';\nimport { Shipment } from '../v1';\nimport { Id } from './common';\n" +
      'export const a = [z, Shipment, Id];\n';
    expect(await errors('core/contract/operations/keys.ts', deeper)).toEqual([]);
  });
});

describe('arrows inside core that never point up', () => {
  it.each([
    [
      'rating → api',
      'core/rating/aggregator.ts',
      "import { fingerprint } from '../api/idempotency';\nexport const a = fingerprint;\n",
    ],
    [
      'rating → api, a type',
      'core/rating/health.ts',
      "import type { ApiRuntime } from '../api/runtime';\nexport type R = ApiRuntime;\n",
    ],
    [
      'operations → api',
      'core/operations/settings.ts',
      "import { isLoopback } from '../api/server';\nexport const a = isLoopback;\n",
    ],
    [
      'carriers → store',
      'core/carriers/types.ts',
      "import type { Store } from '../store';\nexport type S = Store;\n",
    ],
    [
      'carriers → store, a folder deeper',
      'core/carriers/cdek/adapter.ts',
      "import type { Db } from '../../store/open';\nexport type D = Db;\n",
    ],
    [
      'carriers → settings',
      'core/carriers/descriptor.ts',
      "import type { SettingDef } from '../settings/carrier-settings';\nexport type S = SettingDef;\n",
    ],
    [
      'carriers → rating',
      'core/carriers/pek/adapter.ts',
      "import { UNATTRIBUTED } from '../../rating/breaker';\nexport const a = UNATTRIBUTED;\n",
    ],
    [
      'carriers → platform',
      'core/carriers/built-in.ts',
      "import { x } from '../platform/carrier-registry';\nexport const a = x;\n",
    ],
    [
      'locations → store',
      'core/locations/resolver.ts',
      "import type { Db } from '../store/open';\nexport type D = Db;\n",
    ],
    [
      'settings → store',
      'core/settings/schema.ts',
      "import { settingsRepo } from '../store/settings';\nexport const a = settingsRepo;\n",
    ],
    [
      'ratecards → store',
      'core/ratecards/parse.ts',
      "import type { Store } from '../store';\nexport type S = Store;\n",
    ],
    [
      'ratecards → the SQLite implementation',
      'core/ratecards/carriers.ts',
      "import type { RateCardsRepo } from '../store/sqlite/rate-cards';\nexport type R = RateCardsRepo;\n",
    ],
    [
      'api → the SQLite implementation',
      'core/api/server.ts',
      "import { isBusyError } from '../store/sqlite/busy';\nexport const a = isBusyError;\n",
    ],
    [
      'operations → the SQLite implementation',
      'core/operations/keys.ts',
      "import type { SqliteStore } from '../store/sqlite';\nexport type S = SqliteStore;\n",
    ],
    [
      'rating → the SQLite implementation',
      'core/rating/aggregator.ts',
      "import { openStore } from '../store/sqlite';\nexport const a = openStore;\n",
    ],
    [
      'desk → the SQLite implementation',
      'core/desk/dispatch.ts',
      "import { retryWhileBusy } from '../store/sqlite/busy';\nexport const a = retryWhileBusy;\n",
    ],
    [
      'platform → the SQLite implementation',
      'core/platform/carrier-registry.ts',
      "import type { SqliteStore } from '../store/sqlite/store';\nexport type S = SqliteStore;\n",
    ],
  ])('rejects %s', async (_label, file, code) => {
    expect(await errors(file, code)).toEqual([RESTRICTED]);
  });

  it.each([
    [
      'rating → util',
      'core/rating/aggregator.ts',
      "import { fingerprint } from '../util/fingerprint';\nexport const a = fingerprint;\n",
    ],
    [
      'api → rating (down)',
      'core/api/rates.ts',
      "import { aggregate } from '../rating/aggregator';\nexport const a = aggregate;\n",
    ],
    [
      'operations → store (down)',
      'core/operations/keys.ts',
      "import type { Store } from '../store';\nexport type S = Store;\n",
    ],
    [
      'settings → the store port',
      'core/settings/view.ts',
      "import type { SettingsStore } from '../store/port';\nexport type S = SettingsStore;\n",
    ],
    [
      'carriers → the store port, a folder deeper',
      'core/carriers/fivepost/adapter.ts',
      "import type { PickupCatalogueStore } from '../../store/port';\nexport type P = PickupCatalogueStore;\n",
    ],
    [
      'ratecards → the store port',
      'core/ratecards/carriers.ts',
      "import type { RateCardsStore } from '../store/port';\nexport type R = RateCardsStore;\n",
    ],
    [
      'api → the store port',
      'core/api/rates.ts',
      "import { StoreBusyError } from '../store/port';\nexport const a = StoreBusyError;\n",
    ],
    [
      'settings → carriers (down)',
      'core/settings/schema.ts',
      "import { BUILT_IN } from '../carriers/built-in';\nexport const a = BUILT_IN;\n",
    ],
    // A sibling folder named like a layer is not that layer: the zones count the `../` to core/.
    [
      'a carrier subfolder importing ../store (not core/store)',
      'core/carriers/fivepost/x.ts',
      "import { s } from '../store';\nexport const a = s;\n",
    ],
  ])('allows %s', async (_label, file, code) => {
    expect(await errors(file, code)).toEqual([]);
  });

  it('allows the port and nothing else of core/store', async () => {
    const port = "import type { Store } from '../store/port';\nexport type S = Store;\n";
    expect(await errors('core/locations/cache.ts', port)).toEqual([]);
    const index = "import type { Store } from '../store';\nexport type S = Store;\n";
    expect(await errors('core/locations/cache.ts', index)).toEqual([RESTRICTED]);
    const portLike = "import type { P } from '../store/port-extra';\nexport type S = P;\n";
    expect(await errors('core/settings/view.ts', portLike)).toEqual([RESTRICTED]);
    const deeper = "import type { P } from '../store/port/x';\nexport type S = P;\n";
    expect(await errors('core/settings/view.ts', deeper)).toEqual([RESTRICTED]);
  });

  it.each([
    // #18 item 2 moved their SQL into the store: the files that held it no longer reach core/store at all.
    ['core/locations/cache.ts', "import type { Db } from '../store/open';\nexport type D = Db;\n"],
    // #18 item 1 emptied LAYER_ALLOW_LIST: these two take port slices now.
    ['core/settings/view.ts', "import type { Store } from '../store';\nexport type S = Store;\n"],
    [
      'core/ratecards/carriers.ts',
      "import type { RateCardsRepo } from '../store/rate-cards';\nexport type R = RateCardsRepo;\n",
    ],
    ['core/carriers/descriptor.ts', "import type { Db } from '../store/open';\nexport type D = Db;\n"],
    [
      'core/carriers/fivepost/catalogue-store.ts',
      "import type { Db } from '../../store/open';\nexport type D = Db;\n",
    ],
  ])('rejects what a removed entry allowed: %s', async (file, code) => {
    expect(await errors(file, code)).toEqual([RESTRICTED]);
  });
});

describe('the allow-lists only shrink', () => {
  interface LayerConfig {
    DRIVER_ALLOW_LIST: string[];
    LAYER_ALLOW_LIST: { file: string; imports: string }[];
    MAX_DEPTH: number;
  }
  const config = async () =>
    (await import(pathToFileURL(join(root, 'eslint.config.js')).href)) as LayerConfig;

  it('names files that still import a driver', async () => {
    const { DRIVER_ALLOW_LIST } = await config();
    for (const file of DRIVER_ALLOW_LIST) {
      expect(readFileSync(join(root, file), 'utf8'), file).toMatch(/from '(better-sqlite3|pg)'/);
    }
  });

  it('names imports that are still there', async () => {
    const { LAYER_ALLOW_LIST } = await config();
    // Emptied by #18 item 1 (the store port); an entry added later must name an import that exists.
    expect(LAYER_ALLOW_LIST).toHaveLength(0);
    for (const { file, imports } of LAYER_ALLOW_LIST) {
      const up = '../'.repeat(file.split('/').length - 2);
      expect(readFileSync(join(root, file), 'utf8'), file).toContain(`from '${up}${imports}';`);
    }
  });

  it('covers every file of core (no file deeper than the generated zones)', async () => {
    const { MAX_DEPTH } = await config();
    const deepest = Math.max(
      ...readdirSync(join(root, 'core'), { recursive: true, encoding: 'utf8' }).map(
        (p) => p.split(sep).length - 1,
      ),
    );
    expect(deepest).toBeLessThanOrEqual(MAX_DEPTH);
  });
});
