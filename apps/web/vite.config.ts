import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': api, '/media': api, '/healthz': api } },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 1200 },
});
