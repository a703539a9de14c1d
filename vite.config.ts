// Renderer build: renderer/ → dist/renderer/, loaded by Electron from its app:// protocol and by the e2e
// tests from a static server, so every URL in the output is relative (base './').
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    // The renderer is served locally: one JS chunk loads fastest and keeps the CSP simple.
    modulePreload: false,
    sourcemap: false,
    reportCompressedSize: true,
  },
  // core/desk/contract.ts lives outside the Vite root (types only at run time, but the dev server still
  // needs to read it).
  server: { fs: { allow: ['..'] }, host: '127.0.0.1' },
});
