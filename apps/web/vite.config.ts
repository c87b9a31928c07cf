import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
            { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|@mantine[\\/](?!core[\\/](esm[\\/]components[\\/](Alert|Checkbox|List)[\\/]|styles[\\/](Alert|Checkbox|CheckboxIndicator|List)\.css)))/ },
            // Small modules most pages share (API client, session, analytics, dates and money), likewise.
            { name: 'common', test: /apps[\\/]web[\\/]src[\\/]shared[\\/](api|auth|flags|analytics)|packages[\\/]domain[\\/]src[\\/](constants|format|time|money|rental)\.ts/ },
            // The search page and the search bar it shares with the home page, in one file: split, the
            // bar's own chunk would cost /search more than loading the search page's code costs home.
            { name: 'search', test: /apps[\\/]web[\\/]src[\\/](features|shared)[\\/]search[\\/]/, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
