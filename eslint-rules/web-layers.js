import path from 'node:path';

/**
 * The web app's layers, as one lint rule: `shared` imports neither `features` nor `app`;
 * `features` never import `app`; a feature never imports another feature (what two features
 * need lives in `shared`). Relative imports are resolved against the importing file, so the rule
 * holds however deep a file sits.
 */
const WEB_SRC = path.join(import.meta.dirname, '..', 'apps', 'web', 'src');

/** 'shared', 'app', 'features/<name>', or null outside the web app's layers. */
function layerOf(file) {
  const rel = path.relative(WEB_SRC, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [top, name] = rel.split(path.sep);
  if (top === 'features' && name) return `features/${name}`;
  if (top === 'shared' || top === 'app') return top;
  return null;
}

function problem(from, to) {
  if (from === 'shared' && to !== 'shared') return 'sharedImportsUp';
  if (from.startsWith('features/') && to === 'app') return 'featureImportsApp';
  if (from.startsWith('features/') && to.startsWith('features/') && to !== from) return 'crossFeature';
  return null;
}

export const webLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the web app layered: shared → features → app, and features apart.' },
    schema: [],
    messages: {
      sharedImportsUp:
        'shared/ must not import from {{to}}: shared code is used by features and app, never the other way.',
      featureImportsApp:
        '{{from}} must not import from app/: app assembles the features; move what the feature needs to shared/.',
      crossFeature: '{{from}} must not import from {{to}}: features stay apart; move what both need to shared/.',
    },
  },
  create(context) {
    const from = layerOf(context.filename);
    if (!from) return {};
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.'))
        return;
      const to = layerOf(path.resolve(path.dirname(context.filename), source.value));
      const messageId = to && problem(from, to);
      if (messageId) context.report({ node: source, messageId, data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
