import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { OPS_BASE } from '../../packages/domain/src/contract/ops.ts';
import { precompress } from '../../scripts/precompress.ts';

const api = process.env.API_URL ?? 'http://localhost:3000';

/**
 * The operator console (decision 082): a bundle of its own, served by the API under /ops, so none
 * of its code is in the renter's pages. Its text assets get Brotli and gzip copies, as the renter
 * app's do.
 */
export default defineConfig({
  base: `${OPS_BASE}/`,
  plugins: [
    react(),
    {
      name: 'ampere-ops-precompress',
      apply: 'build',
      async writeBundle(options, bundle) {
        await precompress(options.dir ?? 'dist', Object.keys(bundle));
      },
    },
  ],
  publicDir: false,
  server: { proxy: { '/api': api, '/favicon.svg': api } },
  build: { outDir: 'dist', target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 1200 },
});
