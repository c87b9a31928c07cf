import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'e2e/test-results/**', 'e2e/report/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/index', '**/index.ts'], message: 'No barrel files: import the module itself.' }] }],
    },
  },
  {
    files: ['packages/domain/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-*', 'kysely', 'pg', '@electric-sql/*', 'fastify', 'node:*'], message: 'The domain package is pure: no I/O, no React, no database.' }] }],
    },
  },
  // API layers (ARCHITECTURE.md: route → service → repository). Nothing under features/ or http/
  // imports app.ts, the file that assembles the app; a route calls services, never a repository
  // or the database; a repository is the bottom layer and imports no service or route.
  ...(() => {
    const noAppFile = { group: ['**/app.ts'], message: 'Only main and worker import app.ts: take what you need from deps.ts.' };
    const noRoutes = { group: ['**/routes.ts', '**/*-routes.ts'], message: 'Routes are the top layer: nothing imports them but app.ts.' };
    const restrict = (...patterns) => ['error', { patterns: [{ group: ['**/index', '**/index.ts'], message: 'No barrel files: import the module itself.' }, ...patterns] }];
    const noQueries = {
      selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|transaction)$/]',
      message: 'Routes do not query the database: call the feature service.',
    };
    return [
      { files: ['apps/api/src/http/**/*.ts', 'apps/api/src/features/**/*.ts'], rules: { 'no-restricted-imports': restrict(noAppFile) } },
      {
        files: ['apps/api/src/features/*/routes.ts', 'apps/api/src/features/*/*-routes.ts'],
        rules: {
          'no-restricted-imports': restrict(
            noAppFile,
            { group: ['**/repository.ts'], message: 'A route calls its service, never a repository.' },
            { group: ['**/db/*', '!**/db/schema.ts', 'kysely', 'pg', '@electric-sql/*'], message: 'A route does not touch the database: call the service.' },
          ),
          'no-restricted-syntax': ['error', noQueries],
        },
      },
      { files: ['apps/api/src/features/*/service.ts'], rules: { 'no-restricted-imports': restrict(noAppFile, noRoutes) } },
      {
        files: ['apps/api/src/features/*/repository.ts'],
        rules: { 'no-restricted-imports': restrict(noAppFile, noRoutes, { group: ['**/service.ts'], message: 'Repositories are the bottom layer: a service calls them, not the other way.' }) },
      },
    ];
  })(),
);
