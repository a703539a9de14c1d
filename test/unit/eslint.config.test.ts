// The dependency rule of design.md is enforced by eslint.config.js; these cases prove each rule fires
// (and does not fire on what is allowed), so a config edit cannot silently switch a boundary off.
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
