import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The dashboard's build: hashed assets under /assets, served by the Stepwise server. */
export default defineConfig({
  plugins: [react()],
  // The server's sources, for the API's response types (type-only imports; eslint keeps them so)
  // and the few pure domain constants the dashboard shares with it.
  resolve: { alias: { '@server': fileURLToPath(new URL('../src', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 600 },
  server: {
    // `npm run dev -w ui` next to `npm start`: the API answers on the server's port.
    proxy: { '/api': 'http://127.0.0.1:3000', '/files': 'http://127.0.0.1:3000' },
  },
});
