import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { apiLayers, noSql } from './eslint-rules/api-layers.js';
import { webLayers } from './eslint-rules/web-layers.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-server/**',
      '**/node_modules/**',
      '.data/**',
      'e2e/test-results/**',
      'e2e/report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Type-aware: a promise nobody awaits loses its error; one handed to an event prop is never awaited.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/index', '**/index.ts'], message: 'No barrel files: import the module itself.' }] },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['packages/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-*', 'kysely', 'pg', '@electric-sql/*', 'fastify', 'node:*'],
              message: 'The domain package is pure: no I/O, no React, no database.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/ops/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { ...jsxA11y.flatConfigs.recommended.plugins, 'react-hooks': reactHooks },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Web import boundaries (shared → features → app; features apart), in their own block.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { web: { rules: { layers: webLayers } } },
    rules: { 'web/layers': 'error' },
  },
  // API layers (ARCHITECTURE.md, decision 058), by folder: under features/<name>/ and http/ a file
  // is a route (routes.ts, *-routes.ts), a repository (repository.ts, *-repository.ts), or else a
  // service, whatever its name. Routes call services, never a repository or the database; a
  // repository imports no service and no route; nothing under features/ or http/ imports app.ts.
  {
    files: ['apps/api/src/**/*.ts'],
    plugins: { api: { rules: { layers: apiLayers, 'no-sql': noSql } } },
    rules: { 'api/layers': 'error' },
  },
  {
    // Only repositories build queries. Besides them, the database's own plumbing keeps its SQL, and
    // so do the built-in stand-ins for outside services, whose tables are their own books.
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      '**/repository.ts',
      '**/*-repository.ts',
      'apps/api/src/db/**',
      'apps/api/src/seed/**',
      'apps/api/src/jobs/queue.ts',
      'apps/api/src/features/payments/sandbox-*.ts',
      'apps/api/src/features/identity/twin.ts',
      'apps/api/src/features/insurance/twin.ts',
      'apps/api/src/features/twins/outbox.ts',
      'apps/api/src/features/vehicle-access/simulated-fleet.ts',
    ],
    rules: { 'api/no-sql': 'error' },
  },
);
