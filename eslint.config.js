import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
      'no-restricted-syntax': [
        'error',
        {
          // The CLI bundle's chunks cannot call import() themselves (see src/import-package.ts).
          selector: "ImportExpression[source.type='Literal'][source.value=/^(?![.])/]",
          message:
            'Import packages with importPackage() from src/import-package.ts, and node: modules statically.',
        },
      ],
    },
  },
  {
    // One writer of stdout (io/output.ts through io/streams.ts), one exit path (io/exit.ts, main),
    // one signal owner (io/signals.ts). Everything else goes through the context.
    files: ['src/**/*.ts'],
    ignores: [
      'src/io/streams.ts',
      'src/io/exit.ts',
      'src/io/signals.ts',
      'src/main.ts',
      'src/compile-cache.ts',
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
);
