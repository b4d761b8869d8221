// The back-office UI (issue 12): built to <project>/dist/ui and served by the store server at
// /ui/ (server/http/ui.ts). `npm run ui:dev` serves it with hot reload and proxies the API to a
// server on 127.0.0.1:8080 (`npm start`).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const project = fileURLToPath(new URL('../..', import.meta.url));
const api = process.env.POS_UI_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: here,
  base: '/ui/',
  // React's automatic runtime via Vite's built-in oxc transform: no React plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: `${project}dist/ui`,
    emptyOutDir: true,
    target: 'es2022',
    // The app is small and served from the PC itself; one report line per asset is noise.
    reportCompressedSize: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/app': api,
      '/ui/config.json': api,
      '/openapi.json': api,
      // The CSV export's signed download links (screens/export/download.ts puts them on this origin).
      '/downloads': api,
      '^/[^/]+/(pos|waiter)/': api,
    },
  },
});
