import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The local service's layers (docs/ARCHITECTURE.md): the folders of src/server each import only
 * the folders below them, so that the arrows point one way. The root files: clock.ts (anyone),
 * context.ts (the Service object: the upper layers), index.ts (startServer, which wires them all).
 */
const SERVER_FOLDERS = [
  'state',
  'search',
  'ingest',
  'answer',
  'conversation',
  'webhooks',
  'demo',
  'http',
  'web-console',
];
const MAY_IMPORT = {
  state: [],
  search: ['state'],
  ingest: ['search', 'state'],
  answer: ['search', 'state'],
  conversation: ['answer', 'search', 'state', 'context'],
  webhooks: ['state'],
  demo: ['ingest', 'state'],
  // http/app.ts mounts the console (below); the rest of http/ never imports it.
  http: ['conversation', 'answer', 'search', 'ingest', 'state', 'webhooks', 'context'],
  'web-console': ['http', 'conversation', 'answer', 'search', 'ingest', 'state', 'webhooks', 'context'],
};
/** Where a layer may reach further than MAY_IMPORT says; each one named, with why. */
const EXCEPTIONS = [
  // The console's routes are part of the app: app.ts is where http/ mounts them.
  { file: 'src/server/http/app.ts', layer: 'http', also: ['web-console'] },
];

/** `no-restricted-imports` for a file of `layer` `depth` folders below src/server. */
function layerRule(layer, depth, also = []) {
  const allowed = new Set([layer, ...MAY_IMPORT[layer], ...also]);
  const folders = SERVER_FOLDERS.filter((f) => !allowed.has(f));
  const roots = ['index', ...(allowed.has('context') ? [] : ['context'])];
  // Relative specifiers, as written: depth times ../ reaches src/server.
  const up = `^(\\.\\./){${depth}}(\\.\\./server/)?`;
  const regex = `${up}((${folders.join('|')})/|(${roots.join('|')})\\.js$)`;
  const may = [...allowed].filter((f) => f !== layer && f !== 'context');
  return [
    'error',
    {
      patterns: [
        {
          regex,
          message: `src/server/${layer}/ imports only ${may.map((f) => `${f}/`).join(', ') || 'its own files'}${allowed.has('context') ? ', context.ts' : ''} and clock.ts from the service (docs/ARCHITECTURE.md).`,
        },
      ],
    },
  ];
}

const serverLayers = [
  ...Object.keys(MAY_IMPORT).flatMap((layer) =>
    // A file directly in the layer's folder, or up to three folders below it (two is the deepest today).
    [1, 2, 3, 4].map((depth) => ({
      files: [`src/server/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: { 'no-restricted-imports': layerRule(layer, depth) },
    })),
  ),
  ...EXCEPTIONS.map(({ file, layer, also }) => ({
    files: [file],
    rules: { 'no-restricted-imports': layerRule(layer, file.split('/').length - 3, also) },
  })),
];

/** The CLI bundle cannot call import() on a package itself (see src/import-package.ts). */
const PACKAGES_THROUGH_IMPORT_PACKAGE = {
  selector: "ImportExpression[source.type='Literal'][source.value=/^(?![.])/]",
  message: 'Import packages with importPackage() from src/import-package.ts, and node: modules statically.',
};
const SERVER_ONLY_FROM = ['src/commands/serve/**', 'src/commands/demo/**', 'src/index.ts'];
const CLI_NOT_SERVER = `The CLI reaches the service only through ${SERVER_ONLY_FROM.join(', ')} (docs/ARCHITECTURE.md).`;

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'completions/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/import-package.ts'],
    rules: {
      'no-restricted-syntax': ['error', PACKAGES_THROUGH_IMPORT_PACKAGE],
    },
  },
  {
    // One writer of stdout (io/output.ts through io/streams.ts), one exit path (io/exit.ts, main),
    // one signal owner (io/signals.ts), one owner of V8's flags, the process's (v8-flags.ts: set
    // again when a worker thread starts). Everything else goes through the context.
    files: ['src/**/*.ts'],
    ignores: [
      'src/io/streams.ts',
      'src/io/exit.ts',
      'src/io/signals.ts',
      'src/main.ts',
      'src/compile-cache.ts',
      'src/v8-flags.ts',
    ],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        ...[
          'stdout',
          'stderr',
          'stdin',
          'exit',
          'exitCode',
          'on',
          'once',
          'removeAllListeners',
          'removeListener',
        ].map((property) => ({
          object: 'process',
          property,
          message: 'Use the context: ctx.output, ctx.io, ctx.signals; commands throw typed errors.',
        })),
      ],
    },
  },
  ...serverLayers,
  {
    // The CLI (src/ outside src/server/) starts the service in three places and imports nothing else of it.
    files: ['src/**/*.ts'],
    ignores: ['src/server/**', 'src/import-package.ts', ...SERVER_ONLY_FROM],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\./|(\\.\\./)+)server(/|$)', message: CLI_NOT_SERVER }] },
      ],
      'no-restricted-syntax': [
        'error',
        PACKAGES_THROUGH_IMPORT_PACKAGE,
        {
          selector: "ImportExpression[source.type='Literal'][source.value=/(^|\\x2f)server(\\x2f|$)/]",
          message: CLI_NOT_SERVER,
        },
      ],
    },
  },
);
