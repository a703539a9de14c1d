// ESLint flat config. Syntax-only typescript-eslint (no type information) keeps `npm run lint` fast;
// `tsc` does the type checking. The import rules below enforce the dependency rule of design.md:
//   renderer → core/contract, core/desk/contract (types and schemas only); electron → core;
//   core → nothing of ours above it;
// and the layers inside core (docs/architecture.md, "Layers"; #18 item 4): only core/store/<impl> talks to a database
// driver, contract imports zod alone, and a few arrows that must never point up.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const ALL_SOURCES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

// Plain .js/.mjs files (scripts, configs) run in Node. The `globals` package is not a dependency, and
// this short list is all our scripts use.
const NODE_GLOBALS = Object.fromEntries(
  [
    'AbortController',
    'AbortSignal',
    'Buffer',
    'URL',
    'URLSearchParams',
    'TextDecoder',
    'TextEncoder',
    'clearImmediate',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'performance',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

const CORE_MESSAGE =
  'core/ runs in plain Node and knows nothing above it: no electron, react, renderer/ or electron/ (design.md).';
const RENDERER_MESSAGE =
  'The renderer is sandboxed: it reaches the core through the preload API, and may import only types, or ' +
  'core/contract/** and core/desk/contract* (design.md).';

/** core/ → nothing of ours above it (the host rule). Type-only imports are banned too. */
const CORE_HOSTS = {
  group: [
    'electron',
    'electron/**',
    '@electron/**',
    'react',
    'react/**',
    'react-dom',
    'react-dom/**',
    '**/renderer',
    '**/renderer/**',
    '**/electron',
    '**/electron/**',
  ],
  message: CORE_MESSAGE,
};

// ── Layers inside core (#18 item 4; docs/architecture.md, "Layers") ─────────────────────────────────────────
//
// ESLint does not merge a rule's options across config objects: the last object that matches a file and sets
// `@typescript-eslint/no-restricted-imports` replaces every earlier one. So every object below that sets the
// rule repeats all the restrictions that apply to its files (`restrictImports` takes the list), and the order
// is from the widest file set to the narrowest. test/unit/eslint.config.test.ts checks that a file in a zone
// still gets the host rule and the driver rule.
//
// A zone names folders of core by relative import specifiers, as the host rules do (no path resolution, which
// this syntax-only setup lacks). To stay exact it is generated per folder depth: from core/carriers/x.ts core
// is one `../` up, from core/carriers/cdek/x.ts two, so `../store` in core/carriers/fivepost/ (a sibling named
// store, were there one) is not core/store. Dynamic `import()` is not covered by the rule; core uses it only
// for its own lazy halves (a carrier's `load()`) and undici.

/** A driver talks to a database; only a store implementation (core/store/<impl>) may import one. */
const DRIVER_MESSAGE =
  'Only the store implementation (core/store/<impl>) imports a database driver; the rest of the code reaches ' +
  'persistence through the store (docs/architecture.md, "Layers"; #18).';
const DATABASE_DRIVERS = {
  regex: '^(?:better-sqlite3|sqlite3|node:sqlite|pg|postgres|mysql2)(?:/.*)?$',
  message: DRIVER_MESSAGE,
};

/**
 * Files outside core/store/<impl> that import a database driver today, each with what ends its entry. Issue #18
 * allows the SQLite implementation's own tests and fixtures to keep the driver; the rest go through the store.
 * test/unit/eslint.config.test.ts fails on an entry whose file no longer imports a driver, so the list only
 * shrinks.
 */
export const DRIVER_ALLOW_LIST = [
  // The crash soak's ledger oracle reads the killed process's file with a connection of its own on purpose:
  // an oracle built on core/store would share the bugs it is there to catch.
  'test/helpers/crash-soak.ts',
  // Its twin on a company database, for the same reason: a plain `pg` client of its own, not core/store/postgres.
  'test/helpers/crash-soak-postgres.ts',
  // Counts every executed statement that names api_keys by wrapping better-sqlite3's Statement (a type
  // import): the proof that a corrupted key is refused without a query reaches below any store interface.
  'test/reliability/secrets.test.ts',
  // The SQLite implementation's own tests and fixtures (kept by #18; they move with core/store/sqlite):
  'test/integration/api/busy-statements.test.ts', // times every statement against a held write lock
  'test/integration/store/migration-history.test.ts', // compares an upgraded v3 file row by row
  'test/fixtures/data-folder-v3/make-fixture.ts', // wrote the v3 fixture with that release's core
  // The benchmark's bare better-sqlite3 reference for durable charges (docs/benchmarks.md): it measures the
  // driver itself, so it stays.
  'scripts/bench/server.ts',
  // The tests' own PostgreSQL cluster (#19 item 6): creating and dropping a database per test is the
  // administrator's work, which no store does.
  'test/helpers/postgres-cluster.ts',
  'test/helpers/postgres.ts',
];

const LAYER_MESSAGES = {
  store:
    'carriers, locations, settings and ratecards reach persistence only through the store port (#18 item 1), ' +
    'not core/store itself (docs/architecture.md, "Layers").',
  api:
    'Only the hosts and the service wire the /v1 listener (core/api) in: shared helpers go down to core/util, ' +
    'core/settings or core/contract (docs/architecture.md, "Layers").',
  implementation:
    'Take the store port (core/store/port.ts) as a capability: only the composition (core/service.ts, the ' +
    'admin CLI, core/store) chooses an implementation (docs/architecture.md, "Layers").',
  consumers:
    'A carrier does not import the layers that consume carriers (settings, rating, ratecards, platform): ' +
    'declare what the descriptor needs in core/carriers (docs/architecture.md, "Layers").',
  contract:
    'core/contract is zod only, so the renderer can import it: no Node, no driver, nothing of core outside ' +
    'core/contract (docs/architecture.md, "Layers").',
};

/**
 * What a folder of core must never import: the folders (of core) and the message for each. The store port
 * (core/store/port.ts) is the one module of core/store that the folders banned from `store` may import; the
 * folders banned from `store/sqlite` take the port as a capability and never choose an implementation.
 */
const NEVER = {
  carriers: {
    store: 'store',
    settings: 'consumers',
    rating: 'consumers',
    ratecards: 'consumers',
    platform: 'consumers',
  },
  locations: { store: 'store' },
  settings: { store: 'store' },
  ratecards: { store: 'store' },
  rating: { api: 'api', 'store/sqlite': 'implementation' },
  operations: { api: 'api', 'store/sqlite': 'implementation' },
  bulk: { api: 'api', 'store/sqlite': 'implementation' },
  api: { 'store/sqlite': 'implementation' },
  desk: { 'store/sqlite': 'implementation' },
  platform: { 'store/sqlite': 'implementation' },
};

/** The module of core/store that every folder may import: the declared port. */
const STORE_PORT = 'store/port';

/**
 * Today's exceptions to NEVER: a file and the one module it may still import (relative to core/), each named
 * with the #18 item that removes it. test/unit/eslint.config.test.ts fails on an entry whose import is gone.
 */
export const LAYER_ALLOW_LIST = [];

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The rule entry for a list of no-restricted-imports patterns. */
function restrictImports(patterns, paths = []) {
  return {
    'no-restricted-imports': 'off',
    '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
  };
}

/** Patterns banning the folders of NEVER[folder] from a file `up` levels below core/, but `allowed`. */
function neverPatterns(folder, up, allowed) {
  const prefix = `^(?:\\.\\./){${up}}`;
  return Object.entries(NEVER[folder]).map(([target, kind]) => {
    const exceptions = [target === 'store' ? STORE_PORT : null, allowed].filter(Boolean);
    const exception = exceptions.map((e) => `(?!${escapeRegex(e)}$)`).join('');
    return { regex: `${prefix}${exception}${escapeRegex(target)}(?:/.*)?$`, message: LAYER_MESSAGES[kind] };
  });
}

/** contract/ imports zod and itself: no other package, no Node builtin, nothing of core outside contract/. */
function contractPatterns(up) {
  return [
    { regex: '^(?!zod(?:/|$)|\\.)', message: LAYER_MESSAGES.contract },
    { regex: `^(?:\\.\\./){${up}}`, message: LAYER_MESSAGES.contract },
  ];
}

/**
 * Deepest folder level under core/<folder>/ that the generated zones cover (core/carriers/cdek/x.ts is 2);
 * test/unit/eslint.config.test.ts fails if a file of core lies deeper.
 */
export const MAX_DEPTH = 4;
const atDepth = (folder, up) => `core/${folder}/${'*/'.repeat(up - 1)}*`;
const LAYER_BASE = [CORE_HOSTS, DATABASE_DRIVERS];

const layerZones = [
  ...Array.from({ length: MAX_DEPTH }, (_, i) => ({
    files: [atDepth('contract', i + 1)],
    // These two patterns ban every package but zod (electron, react and the drivers among them) and every
    // path out of contract/ (renderer/ and electron/ among them), so they stand in for LAYER_BASE here.
    rules: restrictImports(contractPatterns(i + 1)),
  })),
  ...Object.keys(NEVER).flatMap((folder) =>
    Array.from({ length: MAX_DEPTH }, (_, i) => ({
      files: [atDepth(folder, i + 1)],
      ignores: LAYER_ALLOW_LIST.map((entry) => entry.file),
      rules: restrictImports([...LAYER_BASE, ...neverPatterns(folder, i + 1)]),
    })),
  ),
  ...LAYER_ALLOW_LIST.map(({ file, imports }) => {
    const [, folder, ...rest] = file.split('/');
    return {
      files: [file],
      rules: restrictImports([...LAYER_BASE, ...neverPatterns(folder, rest.length, imports)]),
    };
  }),
];

export default defineConfig([
  globalIgnores([
    'dist/',
    'node_modules/',
    '.ci-out/',
    'test-results/',
    'docs/',
    // Generated output that .gitignore already keeps out of the repository.
    'playwright-report/',
    'release/',
    '.vite/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    files: ALL_SOURCES,
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Matches the `import { x, type T }` style the code base uses with verbatimModuleSyntax.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      // `_name` marks a deliberately unused binding (for instance a property removed with a rest spread).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },

  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: NODE_GLOBALS },
  },

  // Only core/store/<impl> imports a database driver, anywhere in the repository (today's exceptions above).
  {
    files: ALL_SOURCES,
    ignores: ['core/store/*/**', ...DRIVER_ALLOW_LIST],
    rules: restrictImports([DATABASE_DRIVERS]),
  },

  // core/ → nothing of ours above it. Type-only imports are banned too: core must compile without
  // electron or react types. And no driver outside core/store.
  { files: ['core/**'], rules: restrictImports(LAYER_BASE) },
  { files: ['core/store/*.ts'], rules: restrictImports([CORE_HOSTS, DATABASE_DRIVERS]) },
  { files: ['core/store/*/**'], rules: restrictImports([CORE_HOSTS]) },

  // The layers inside core: contract is zod only, and NEVER's arrows (with LAYER_ALLOW_LIST's exceptions).
  ...layerZones,

  // renderer/ → core/contract and core/desk/contract only; anything else of ours or of Node only as a
  // type (erased at build time, so nothing of Node reaches the sandboxed page).
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: RENDERER_MESSAGE },
            { name: 'better-sqlite3', message: RENDERER_MESSAGE },
            // Bare builtin names (`fs`, `path`): Vite would stub them out and fail at run time.
            ...builtinModules
              .filter((name) => !name.startsWith('_'))
              .map((name) => ({ name, message: RENDERER_MESSAGE })),
          ],
          patterns: [
            { group: ['node:*', 'electron/**', '@electron/**'], message: RENDERER_MESSAGE },
            {
              // Any path whose segment `core` is followed by something other than contract/** or
              // desk/contract* (a glob group cannot re-include a folder under an excluded one).
              regex: '^(?:.*/)?core(?:/(?!contract(?:/|$)|desk/contract[^/]*$).*)?$',
              message: RENDERER_MESSAGE,
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },

  // Opening a URL in the user's browser goes through one audited function that checks the scheme.
  // Tests may mock or assert on shell.openExternal.
  {
    files: ALL_SOURCES,
    ignores: ['electron/main/open-external.ts', 'test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='openExternal']",
          message: 'Use openExternal() from electron/main/open-external.ts, which checks the URL first.',
        },
        {
          selector: "MemberExpression[computed=true][property.value='openExternal']",
          message: 'Use openExternal() from electron/main/open-external.ts, which checks the URL first.',
        },
        {
          selector: "ObjectPattern > Property[key.name='openExternal']",
          message: 'Use openExternal() from electron/main/open-external.ts, which checks the URL first.',
        },
      ],
    },
  },
]);
