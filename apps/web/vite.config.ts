import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { type ConfigEnv, type Plugin, type Rolldown, defineConfig } from 'vite';
import { precompress } from '../../scripts/precompress.ts';
import { PRELOADED_PAGES } from './src/app/preloaded-pages.ts';

const api = process.env.API_URL ?? 'http://localhost:3000';

/** The browser's build, not the server's first-screen module (`vite build --ssr`). */
const browserBuild = (_: unknown, env: ConfigEnv) => env.command === 'build' && !env.isSsrBuild;

/**
 * Writes the Brotli and gzip copies of every text asset the build emits (`scripts/precompress.ts`).
 * `npm start` asks for them later (AMPERE_PRECOMPRESS=later), once its server is up: most of the
 * browser build's time is the Brotli pass (decision 078).
 */
function precompressAssets(): Plugin {
  return {
    name: 'ampere-precompress-assets',
    apply: (config, env) => browserBuild(config, env) && process.env.AMPERE_PRECOMPRESS !== 'later',
    async writeBundle(options, bundle) {
      await precompress(options.dir ?? 'dist', Object.keys(bundle));
    },
  };
}

/**
 * Writes `page-preloads.json`: for each page of `PRELOADED_PAGES`, the JavaScript and CSS files its
 * route loads beyond what index.html already names. The server adds them to that page's HTML, so a
 * page's code downloads with the framework rather than after it has run (decision 044).
 */
function pagePreloads(): Plugin {
  let root = process.cwd();
  return {
    name: 'ampere-page-preloads',
    apply: browserBuild,
    configResolved(config) {
      root = config.root;
    },
    writeBundle(options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
      const withImports = (start: Rolldown.OutputChunk): Rolldown.OutputChunk[] => {
        const seen = new Map<string, Rolldown.OutputChunk>([[start.fileName, start]]);
        const queue = [start];
        for (let chunk = queue.pop(); chunk; chunk = queue.pop())
          for (const name of chunk.imports) {
            const next = bundle[name];
            if (next?.type !== 'chunk' || seen.has(name)) continue;
            seen.set(name, next);
            queue.push(next);
          }
        return [...seen.values()];
      };
      const cssOf = (list: Rolldown.OutputChunk[]) => list.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]);
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) throw new Error('page preloads: the build has no entry chunk');
      const entryJs = new Set(withImports(entry).map((c) => c.fileName));
      const entryCss = new Set(cssOf(withImports(entry)));
      const pages = PRELOADED_PAGES.map(({ pattern, module }) => {
        const file = path.resolve(root, module);
        const chunk = chunks.find((c) => c.facadeModuleId === file);
        if (!chunk) throw new Error(`page preloads: no chunk is built from ${module}`);
        const own = withImports(chunk);
        return {
          pattern,
          js: own
            .map((c) => c.fileName)
            .filter((f) => !entryJs.has(f))
            .map((f) => `/${f}`),
          css: [...new Set(cssOf(own))].filter((f) => !entryCss.has(f)).map((f) => `/${f}`),
        };
      });
      fs.writeFileSync(path.join(options.dir ?? 'dist', 'page-preloads.json'), JSON.stringify(pages, null, 2));
    },
  };
}

/**
 * Mantine's `useId` draws React's id, then swaps in a random one once mounted (for Reacts without
 * `useId`). After a take-over that is a synchronous re-render of every field, menu and dialog on
 * the page, in one task the renter cannot interrupt. React's own id is the same on the server and
 * in the browser, so the build keeps it.
 */
function stableMantineIds(): Plugin {
  const file = /@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;
  return {
    name: 'ampere-stable-mantine-ids',
    enforce: 'pre',
    load(id) {
      if (!file.test(id)) return null;
      return [
        "import { useReactId } from './use-react-id.mjs';",
        'export function useId(staticId) {',
        '  const reactId = useReactId();',
        "  return typeof staticId === 'string' ? staticId : reactId;",
        '}',
      ].join('\n');
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [stableMantineIds(), react(), precompressAssets(), pagePreloads()],
  // The first-screen module (src/app/entry-server.tsx) runs in the API's Node process, with
  // everything it uses bundled in and built for production whatever NODE_ENV the server has (React's
  // development build draws several times slower): one copy of React, the shared rules from source.
  ssr: { noExternal: true },
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  // The public files (icon, videos) are the browser build's to copy.
  publicDir: isSsrBuild ? false : 'public',

  server: { proxy: { '/api': api, '/media': api, '/healthz': api, '/app': { target: api, ws: true } } },
  build: {
    // The first-screen module goes beside the browser's build, where the API looks for it.
    outDir: isSsrBuild ? 'dist-server' : 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                // React DOM, evaluated in a task of its own before the rest (app/after-react.ts waits for
                // the next task at the end of this chunk).
                {
                  name: 'react',
                  test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|apps[\\/]web[\\/]src[\\/]app[\\/]after-react\.ts/,
                  includeDependenciesRecursively: false,
                  priority: 1,
                },
                // The framework every page runs on, in one file rather than a scatter of shared scraps.
                // Mantine components only other pages use (Alert, Checkbox, List), and the dialogs and drawer
                // that load when first opened (decision 047) with what only they use (Portal, FocusTrap,
                // ScrollArea and the floating-ui it brings), stay out of it, in the chunks that use them; so
                // do Menu, Popover and Combobox, which the app's own menu and autocomplete replace. Of
                // Checkbox and Combobox it keeps the check icon and the select's chevron, which Chip and
                // NativeSelect draw. Mantine's files import their neighbours' whole folders for nothing
                // (NativeSelect imports ScrollArea and Checkbox), so the group takes only the modules it
                // names (clsx among them), not everything they import.
                {
                  name: 'framework',
                  test: /node_modules[\\/]((clsx)[\\/]|@tanstack|@mantine[\\/](?!core[\\/](esm[\\/]components[\\/]((Alert|List|Modal|ModalBase|Drawer|Overlay|Menu|Popover|ScrollArea|Portal|FocusTrap)[\\/]|Checkbox[\\/](?!CheckIcon\.)|Combobox[\\/](?!ComboboxChevron[\\/]|get-parsed-combobox-data[\\/]|Combobox\.module))|styles[\\/](Alert|Checkbox|CheckboxIndicator|List)\.css)))/,
                  includeDependenciesRecursively: false,
                },
                // Small modules most pages share (API client, session, analytics, paths, dates and money, the
                // lazy dialogs' loader), likewise: in the entry chunk, the search chunk would read it before it ran.
                // It also takes what the entry shares with the pages' chunks (the guards' and prefetches'
                // modules, the layout's): with the wait in the react chunk, the bundler would otherwise
                // give each of them a file of its own.
                {
                  name: 'common',
                  test: /apps[\\/]web[\\/]src[\\/](shared[\\/](api|auth|flags|analytics|paths|router|page-title|search-query|realtime[\\/]realtime-(connection|events)|errors[\\/]error-pages|ui[\\/](opened-lazily|use-wide-layout|use-in-browser|dates[\\/]lazy-change-dates-modal))|features[\\/](trips[\\/]public[\\/]get-reservation|home[\\/]public[\\/]get-vehicle-models|vehicles[\\/]public[\\/]vehicle-api|auth[\\/]public[\\/](login-target|log-out))|app[\\/]layouts[\\/]shell\.module)|packages[\\/]domain[\\/]src[\\/](constants|format|format-number|time|money|rental|realtime|filters)\.ts|vite[\\/]preload-helper/,
                },
                // The search page and the search bar it shares with the home page, in one file: split, the
                // bar's own chunk would cost /search more than loading the search page's code costs home.
                // The mobile search's dialog loads when first opened, so it is not part of it.
                {
                  name: 'search',
                  test: /apps[\\/]web[\\/]src[\\/]features[\\/]search[\\/](?!components[\\/]mobile-search-dialog)/,
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
  },
}));
