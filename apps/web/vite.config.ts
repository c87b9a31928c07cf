import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

const api = process.env.API_URL ?? 'http://localhost:3000';

/**
 * Writes a Brotli (quality 11) and a gzip (level 9) copy beside every text asset the build emits,
 * for the server to send as they are: compressing on each request uses a fast, weaker setting
 * (the shared chunk was 163 KB over the wire that way, 134 KB at quality 11).
 */
function precompressAssets(): Plugin {
  return {
    name: 'ampere-precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const content = fs.readFileSync(file);
        if (content.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
        );
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompressAssets()],
  server: { proxy: { '/api': api, '/media': api, '/healthz': api, '/app': { target: api, ws: true } } },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The framework every page runs on, in one file rather than a scatter of shared scraps.
            // Mantine components only other pages use (Alert, Checkbox, List) stay out of it, in those pages' chunks.
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|@mantine[\\/](?!core[\\/](esm[\\/]components[\\/](Alert|Checkbox|List)[\\/]|styles[\\/](Alert|Checkbox|CheckboxIndicator|List)\.css)))/,
            },
            // Small modules most pages share (API client, session, analytics, dates and money), likewise.
            {
              name: 'common',
              test: /apps[\\/]web[\\/]src[\\/]shared[\\/](api|auth|flags|analytics)|packages[\\/]domain[\\/]src[\\/](constants|format|time|money|rental)\.ts/,
            },
            // The search page and the search bar it shares with the home page, in one file: split, the
            // bar's own chunk would cost /search more than loading the search page's code costs home.
            {
              name: 'search',
              test: /apps[\\/]web[\\/]src[\\/](features|shared)[\\/]search[\\/]/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
