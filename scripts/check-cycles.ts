/**
 * Part of `npm run lint` (decision 058): fails when the API or the web app has an import cycle,
 * between files or between features (the graph with each `features/<name>` folder taken as one
 * node). Type-only imports are left out: the compiler erases them, so they cannot change the order
 * in which modules load, and a type a lower layer borrows from a higher one is not a call upwards.
 *
 *   node --import tsx scripts/check-cycles.ts
 *
 * Prints what it read (files, imports, features, edges between features) and each cycle found as
 * a path `a → b → a`; exits 1 on any cycle, or when a relative import did not
 * resolve (the graph would have a hole where a cycle could hide).
 */
import path from 'node:path';
import madge from 'madge';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Tree {
  name: string;
  dir: string;
  tsConfig: string;
}

const TREES: Tree[] = [
  { name: 'api', dir: 'apps/api/src', tsConfig: 'tsconfig.json' },
  { name: 'web', dir: 'apps/web/src', tsConfig: 'apps/web/tsconfig.json' },
  { name: 'ops', dir: 'apps/ops/src', tsConfig: 'apps/ops/tsconfig.json' },
];

/** At most this many cycles are printed per knot; a knot can hold many. */
const CYCLES_SHOWN = 20;

type Graph = Map<string, Set<string>>;

/** The feature a file belongs to (`features/<name>/…`), or null outside features. */
function featureOf(file: string): string | null {
  const [top, name, ...rest] = file.split('/');
  return top === 'features' && name && rest.length > 0 ? name : null;
}

/** The import graph with every file of a feature as one node; files outside features are left out. */
function featureGraph(files: Record<string, string[]>): Graph {
  const graph: Graph = new Map();
  for (const [file, imports] of Object.entries(files)) {
    const from = featureOf(file);
    if (!from) continue;
    for (const imported of imports) {
      const to = featureOf(imported);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan): each holds every cycle through its nodes. */
function knots(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The simple cycles within one knot, each starting from its alphabetically first node; `limit` at most. */
function cyclesIn(graph: Graph, knot: string[], limit: number): { cycles: string[][]; more: boolean } {
  const members = new Set(knot);
  const cycles: string[][] = [];
  let more = false;
  for (const start of knot) {
    const trail = [start];
    const walk = (v: string) => {
      for (const w of [...(graph.get(v) ?? [])].sort()) {
        if (!members.has(w)) continue;
        if (w === start) {
          if (cycles.length < limit) cycles.push([...trail, start]);
          else more = true;
        } else if (w > start && !trail.includes(w)) {
          trail.push(w);
          walk(w);
          trail.pop();
        }
      }
    };
    walk(start);
  }
  return { cycles, more };
}

const arrow = (nodes: string[]) => nodes.join(' → ');

async function check(tree: Tree): Promise<number> {
  const dir = path.join(ROOT, tree.dir);
  const result = await madge(dir, {
    baseDir: dir,
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(ROOT, tree.tsConfig),
    detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
  });
  const files = result.obj();
  const imports = Object.values(files).reduce((n, list) => n + list.length, 0);
  const features = new Set(
    Object.keys(files)
      .map(featureOf)
      .filter((f) => f !== null),
  );
  const graph = featureGraph(files);
  const featureEdges = [...graph.values()].reduce((n, set) => n + set.size, 0);
  let failures = 0;

  const unresolved = result.warnings().skipped.filter((s) => s.startsWith('.'));
  for (const specifier of unresolved) console.log(`  ✗ an import that resolves to no file: ${specifier}`);
  failures += unresolved.length;

  const fileCycles = result.circular();
  for (const cycle of fileCycles)
    console.log(`  ✗ file cycle: ${arrow([...cycle, cycle[0]!].map((f) => `${tree.dir}/${f}`))}`);
  failures += fileCycles.length;

  let featureCycles = 0;
  for (const knot of knots(graph)) {
    const { cycles, more } = cyclesIn(graph, knot, CYCLES_SHOWN);
    for (const cycle of cycles) console.log(`  ✗ feature cycle: ${arrow(cycle)}`);
    if (more) console.log(`    … and more through ${knot.join(', ')}`);
    featureCycles += cycles.length;
  }
  failures += featureCycles;

  console.log(
    `${tree.name} (${tree.dir}): ${Object.keys(files).length} files, ${imports} imports (type-only left out); ` +
      `${features.size} features, ${featureEdges} edges between features; ` +
      `${fileCycles.length} file cycles, ${featureCycles} feature cycles`,
  );
  return failures;
}

let failures = 0;
for (const tree of TREES) failures += await check(tree);
if (failures > 0) {
  console.error(`Import cycles: ${failures} problem(s) above. Break each cycle (see docs/decisions/058).`);
  process.exitCode = 1;
} else {
  console.log('Import cycles: none.');
}
