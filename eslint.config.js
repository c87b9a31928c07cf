import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
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
    files: ['apps/web/**/*.{ts,tsx}'],
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
  // API layers (ARCHITECTURE.md: route → service → repository). Nothing under features/ or http/
  // imports app.ts, the file that assembles the app; a route calls services, never a repository
  // or the database; a repository is the bottom layer and imports no service or route.
  ...(() => {
    const noAppFile = {
      group: ['**/app.ts'],
      message: 'Only main and worker import app.ts: take what you need from deps.ts.',
    };
    const noRoutes = {
      group: ['**/routes.ts', '**/*-routes.ts'],
      message: 'Routes are the top layer: nothing imports them but app.ts.',
    };
    const restrict = (...patterns) => [
      'error',
      {
        patterns: [
          { group: ['**/index', '**/index.ts'], message: 'No barrel files: import the module itself.' },
          ...patterns,
        ],
      },
    ];
    const noQueries = {
      selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|transaction)$/]',
      message: 'Routes do not query the database: call the feature service.',
    };
    return [
      {
        files: ['apps/api/src/http/**/*.ts', 'apps/api/src/features/**/*.ts'],
        rules: { 'no-restricted-imports': restrict(noAppFile) },
      },
      {
        files: ['apps/api/src/features/*/routes.ts', 'apps/api/src/features/*/*-routes.ts'],
        rules: {
          'no-restricted-imports': restrict(
            noAppFile,
            { group: ['**/repository.ts'], message: 'A route calls its service, never a repository.' },
            {
              group: ['**/db/*', '!**/db/schema.ts', 'kysely', 'pg', '@electric-sql/*'],
              message: 'A route does not touch the database: call the service.',
            },
          ),
          'no-restricted-syntax': ['error', noQueries],
        },
      },
      {
        files: ['apps/api/src/features/*/service.ts'],
        rules: { 'no-restricted-imports': restrict(noAppFile, noRoutes) },
      },
      {
        files: ['apps/api/src/features/*/repository.ts'],
        rules: {
          'no-restricted-imports': restrict(noAppFile, noRoutes, {
            group: ['**/service.ts'],
            message: 'Repositories are the bottom layer: a service calls them, not the other way.',
          }),
        },
      },
    ];
  })(),
);
