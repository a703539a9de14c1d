// ESLint flat config. Syntax-only typescript-eslint (no type information) keeps `npm run lint` fast;
// `tsc` does the type checking. The import rules below enforce the dependency rule of design.md:
//   renderer → core/contract, core/desk/contract (types and schemas only); electron → core;
//   core → nothing of ours above it.
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

  // core/ → nothing of ours above it. Type-only imports are banned too: core must compile without
  // electron or react types.
  {
    files: ['core/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
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
            },
          ],
        },
      ],
    },
  },

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
