import path from 'node:path';

/**
 * The API's layers, by folder (decision 058): under `features/<name>/` and `http/`, a file is a
 * route (`routes.ts`, `*-routes.ts`), a repository (`repository.ts`, `*-repository.ts`), or else
 * a service, whatever it is called (`end-trip.ts` is a service). Two rules:
 * - `api/no-sql`: no query is built outside a repository. Which files may (repositories and the
 *   database plumbing) is said by the config's `ignores`, not here.
 * - `api/layers`: routes → services → repositories, by what each imports.
 * Relative imports are resolved against the importing file, so the rules hold at any depth.
 */
const API_SRC = path.join(import.meta.dirname, '..', 'apps', 'api', 'src');

/** Kysely's query-builder entry points (and its own transactions), called as methods. */
const QUERY_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'selectNoFrom',
  'with',
  'transaction',
  'mergeInto',
  'replaceInto',
]);

/** Where a file sits in the API, or null outside apps/api/src. */
function placeOf(file) {
  const rel = path.relative(API_SRC, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  const base = parts[parts.length - 1].replace(/\.tsx?$/, '');
  const area = parts[0] === 'features' && parts.length > 2 ? `features/${parts[1]}` : parts.length > 1 ? parts[0] : '';
  const layer =
    base === 'routes' || base.endsWith('-routes')
      ? 'route'
      : base === 'repository' || base.endsWith('-repository')
        ? 'repository'
        : 'service';
  return { rel: parts.join('/'), area, layer, layered: area.startsWith('features/') || area === 'http' };
}

const DATABASE_PACKAGES = /^(kysely|pg|@electric-sql\/.*)$/;

/** The reason an import from `from` of `specifier` breaks the layers, or null. */
function problem(from, specifier, file) {
  if (!specifier.startsWith('.')) {
    return from.layer === 'route' && DATABASE_PACKAGES.test(specifier) ? 'routeImportsDatabase' : null;
  }
  const to = placeOf(path.resolve(path.dirname(file), specifier));
  if (!to) return null;
  if (to.rel === 'app.ts') return from.layered ? 'importsApp' : null;
  if (to.layer === 'route' && to.layered) return from.rel === 'app.ts' ? null : 'importsRoute';
  if (from.layer === 'route') {
    if (to.layer === 'repository') return 'routeImportsRepository';
    if (to.area === 'db' && to.rel !== 'db/schema.ts') return 'routeImportsDatabase';
  }
  if (from.layer === 'repository' && to.layered && to.layer === 'service') return 'repositoryImportsService';
  return null;
}

export const apiLayers = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Keeps the API layered: routes → services → repositories; nothing under features/ or http/ imports app.ts.',
    },
    schema: [],
    messages: {
      importsApp: 'Only main and worker import app.ts: take what you need from deps.ts.',
      importsRoute: 'Routes are the top layer: nothing imports them but app.ts.',
      routeImportsRepository: 'A route calls its service, never a repository.',
      routeImportsDatabase: 'A route does not touch the database: call the service.',
      repositoryImportsService:
        'Repositories are the bottom layer: they import other repositories and the database, never a service ({{specifier}}).',
    },
  },
  create(context) {
    const from = placeOf(context.filename);
    if (!from) return {};
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const messageId = problem(from, source.value, context.filename);
      if (messageId) context.report({ node: source, messageId, data: { specifier: source.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export const noSql = {
  meta: {
    type: 'problem',
    docs: { description: 'Only repositories build queries: no Kysely query builder and no sql template elsewhere.' },
    schema: [],
    messages: {
      query:
        'Only repositories build queries: move this .{{name}}() into a repository of this folder (repository.ts or <name>-repository.ts) and call that.',
      sql: "Only repositories write SQL: move this use of kysely's sql into a repository of this folder (repository.ts or <name>-repository.ts) and call that.",
    },
  },
  create(context) {
    const reportUses = (variable, viaNamespace) => {
      for (const reference of variable.references) {
        const id = reference.identifier;
        const parent = id.parent;
        if (viaNamespace) {
          // `import * as k from 'kysely'`: only `k.sql` is SQL.
          const isSql =
            parent?.type === 'MemberExpression' &&
            parent.object === id &&
            !parent.computed &&
            parent.property.name === 'sql';
          if (isSql) context.report({ node: parent, messageId: 'sql' });
        } else {
          context.report({ node: id, messageId: 'sql' });
        }
      }
    };
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        if (QUERY_METHODS.has(callee.property.name))
          context.report({ node: callee.property, messageId: 'query', data: { name: callee.property.name } });
      },
      ImportDeclaration(node) {
        if (node.source.value !== 'kysely' || node.importKind === 'type') return;
        for (const specifier of node.specifiers) {
          const namespace = specifier.type === 'ImportNamespaceSpecifier';
          const named =
            specifier.type === 'ImportSpecifier' &&
            specifier.importKind !== 'type' &&
            (specifier.imported.name ?? specifier.imported.value) === 'sql';
          if (!namespace && !named) continue;
          for (const variable of context.sourceCode.getDeclaredVariables(specifier)) reportUses(variable, namespace);
        }
      },
    };
  },
};
