import path from 'node:path';

/**
 * The web app's layers, as one lint rule (decision 060):
 * - `shared` (generic pieces) imports neither a feature nor `app`;
 * - a feature never imports `app`;
 * - a feature imports another feature only through that feature's `public/` folder, never its
 *   internals (api/, components/, routes/, its own modules);
 * - `app` (the shell that assembles the features) imports a feature's `routes/` (its pages) and
 *   `public/` only.
 * Relative imports are resolved against the importing file, so the rule holds however deep a file sits.
 */
const WEB_SRC = path.join(import.meta.dirname, '..', 'apps', 'web', 'src');

/**
 * Where a file sits: its layer ('shared', 'app' or 'features/<name>') and, in a feature, the
 * feature's top folder or file it is under ('public', 'routes', 'components', 'use-pay-load.ts', …).
 * Null outside the web app's layers.
 */
function placeOf(file) {
  const rel = path.relative(WEB_SRC, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [top, name, area] = rel.split(path.sep);
  if (top === 'features' && name) return { layer: `features/${name}`, area: area ?? '' };
  if (top === 'shared' || top === 'app') return { layer: top, area: '' };
  return null;
}

function problem(from, to) {
  if (from.layer === 'shared' && to.layer !== 'shared') return 'sharedImportsUp';
  if (from.layer.startsWith('features/') && to.layer === 'app') return 'featureImportsApp';
  if (from.layer.startsWith('features/') && to.layer.startsWith('features/') && to.layer !== from.layer)
    return to.area === 'public' ? null : 'featureInternals';
  if (from.layer === 'app' && to.layer.startsWith('features/'))
    return to.area === 'public' || to.area === 'routes' ? null : 'appImportsInternals';
  return null;
}

export const webLayers = {
  meta: {
    type: 'problem',
    docs: {
      description:
        "Keeps the web app layered: shared → features → app, and a feature's internals its own (others use its public/).",
    },
    schema: [],
    messages: {
      sharedImportsUp:
        'shared/ must not import from {{to}}: shared/ holds generic pieces that features and app use, never the other way. Move the code into the feature, or take the generic part into shared/.',
      featureImportsApp:
        '{{from}} must not import from app/: app assembles the features. Move what the feature needs into the feature or into shared/.',
      featureInternals:
        "{{from}} must not import {{to}}'s internals ({{path}}): another feature is used only through its public/ folder. Import {{to}}/public/…, moving the piece there if it is meant to be used outside {{to}}.",
      appImportsInternals:
        "app/ must not import {{to}}'s internals ({{path}}): app uses a feature's routes/ (its pages) and public/ only. Move the piece to {{to}}/public/.",
    },
  },
  create(context) {
    const from = placeOf(context.filename);
    if (!from) return {};
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.'))
        return;
      const resolved = path.resolve(path.dirname(context.filename), source.value);
      const to = placeOf(resolved);
      const messageId = to && problem(from, to);
      if (messageId)
        context.report({
          node: source,
          messageId,
          data: {
            from: from.layer,
            to: to.layer,
            path: path.relative(WEB_SRC, resolved).split(path.sep).join('/'),
          },
        });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
