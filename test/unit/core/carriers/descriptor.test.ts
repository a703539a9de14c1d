// A ninth carrier is its folder plus one line in core/carriers/built-in.ts, and a descriptor missing a part does
// not compile. These cases compile small carriers against the real core/carriers/descriptor.ts with the
// project's own compiler settings, and check what the compiler says: a complete one compiles clean, and each
// missing part is an error at the descriptor, not a surprise at run time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const core = (path: string): string => JSON.stringify(join(root, 'core', path));

/** A complete ninth carrier: descriptor, heavy half, and the list that takes it. */
const COMPLETE = {
  descriptor: `
import { z } from 'zod';
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from ${core('carriers/descriptor')};

const settings = {
  production: 'https://api.ninth.example',
  credentials: { token: { secret: true, doc: 'Ninth token.' } },
  options: { mode: { schema: z.enum(['a', 'b']), default: 'a', secret: false, doc: 'Mode.' } },
} as const satisfies CarrierSettingsDescription;
export type NinthField = CarrierField<typeof settings>;

export const NINTH = defineCarrier({
  code: 'ninth',
  name: 'Девятый',
  nameEn: 'Ninth',
  settings,
  limits: { maxWeightGrams: 10_000 },
  locations: ['postal_code'],
  triggers: { timeout: '999981', error: '999982', noService: '999983' },
  days: { kind: 'working', cutoff: '15:00' },
  load: () => import('./carrier').then((m) => m.implementation),
});
`,
  carrier: `
import type { CarrierImplementation } from ${core('carriers/descriptor')};
import type { NinthField } from './descriptor';

export const implementation: CarrierImplementation<NinthField> = {
  create: (_target, s) => ({
    code: 'ninth',
    name: 'Девятый',
    quote: async () => ({ ok: false, kind: 'not_configured', detail: s.get('token') + s.get('mode') }),
  }),
  checks: () => [],
  startSimulator: async () => ({ url: 'http://127.0.0.1:1', close: async () => {}, requestCount: () => 0 }),
};
`,
  list: `
import { CARRIER_DESCRIPTORS } from ${core('carriers/built-in')};
import { allCarrierSettings } from ${core('settings/carrier-settings')};
import { NINTH } from './descriptor';

const LIST = [...CARRIER_DESCRIPTORS, NINTH] as const;
const SETTINGS = allCarrierSettings(LIST);
// The ninth carrier's settings are there by name, typed: a misspelt name would not compile.
export const token = SETTINGS['carriers.ninth.token'];
export const mode = SETTINGS['carriers.ninth.mode'];
export const enabled = SETTINGS['carriers.ninth.enabled'];
export const cdek = SETTINGS['carriers.cdek.contract_type'];
export const cutoff = SETTINGS['carriers.ninth.cutoff'];
`,
};

type Carrier = typeof COMPLETE;
const CASES: Record<string, Carrier> = {
  complete: COMPLETE,
  'no settings': { ...COMPLETE, descriptor: COMPLETE.descriptor.replace('  settings,\n', '') },
  'no sandbox triggers': {
    ...COMPLETE,
    descriptor: COMPLETE.descriptor.replace(/ {2}triggers: .*\n/, ''),
  },
  'no kind of days (#21)': {
    ...COMPLETE,
    descriptor: COMPLETE.descriptor.replace(/ {2}days: .*\n/, ''),
  },
  'no heavy half (load)': {
    ...COMPLETE,
    descriptor: COMPLETE.descriptor.replace(/ {2}load: .*\n/, ''),
  },
  'a heavy half without its live check': {
    ...COMPLETE,
    carrier: COMPLETE.carrier.replace('  checks: () => [],\n', ''),
  },
  'a heavy half without its simulator': {
    ...COMPLETE,
    carrier: COMPLETE.carrier.replace(/ {2}startSimulator: .*\n/, ''),
  },
  'an adapter reading a setting the descriptor does not declare': {
    ...COMPLETE,
    carrier: COMPLETE.carrier.replace("s.get('mode')", "s.get('password')"),
  },
  'a location the resolver does not know': {
    ...COMPLETE,
    descriptor: COMPLETE.descriptor.replace("locations: ['postal_code']", "locations: ['street']"),
  },
};

/** Where each broken case must fail, and with what the compiler says (so it fails for the right reason). */
const EXPECTED: Record<string, [file: string, words: RegExp]> = {
  'no settings': ['/descriptor.ts', /settings/],
  'no sandbox triggers': ['/descriptor.ts', /triggers/],
  'no kind of days (#21)': ['/descriptor.ts', /days/],
  'no heavy half (load)': ['/descriptor.ts', /load/],
  'a heavy half without its live check': ['/carrier.ts', /'checks' is missing/],
  'a heavy half without its simulator': ['/carrier.ts', /'startSimulator' is missing/],
  'an adapter reading a setting the descriptor does not declare': ['/carrier.ts', /"password"/],
  'a location the resolver does not know': ['/descriptor.ts', /"street"/],
};

let dir = '';
const errorsOf = new Map<string, string[]>();

beforeAll(() => {
  // Inside node_modules, so the cases resolve zod as core does (and no tool lints or formats them).
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  dir = mkdtempSync(join(root, 'node_modules', '.cache', 'ratedesk-ninth-'));
  const files: string[] = [];
  for (const [i, [name, c]] of Object.entries(CASES).entries()) {
    const folder = join(dir, `case${i}`);
    mkdirSync(folder);
    for (const [part, text] of Object.entries(c)) {
      const file = join(folder, `${part}.ts`);
      writeFileSync(file, text);
      files.push(file);
    }
    errorsOf.set(name, []);
  }
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json unreadable');
  const program = ts.createProgram(files, { ...config.options, noUnusedLocals: false });
  const names = Object.keys(CASES);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '';
    const match = /[/\\]case(\d+)[/\\]/.exec(file);
    const name = match ? names[Number(match[1])] : undefined;
    const text = `${file.slice(dir.length)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    if (name) errorsOf.get(name)!.push(text);
    else throw new Error(`a diagnostic outside the cases: ${text}`);
  }
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a ninth carrier', () => {
  it('compiles clean when complete, and its settings are derived by name', () => {
    expect(errorsOf.get('complete')).toEqual([]);
  });

  it.each(Object.keys(EXPECTED))('does not compile with %s', (name) => {
    const [file, words] = EXPECTED[name]!;
    expect(errorsOf.get(name)!.filter((e) => e.includes(file) && words.test(e))).not.toEqual([]);
  });
});
