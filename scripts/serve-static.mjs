// Serves a built folder on 127.0.0.1 for the e2e tests: node scripts/serve-static.mjs dist/renderer 4319
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? 'dist/renderer');
const port = Number(process.argv[3] ?? process.env.PORT ?? 4319);
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  const file = resolve(join(root, path === '/' ? 'index.html' : path));
  if (file !== root && !file.startsWith(root + sep)) return void res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res
      .writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
      })
      .end(body);
  } catch {
    res.writeHead(404).end('not found (did you run npm run build:renderer?)');
  }
}).listen(port, '127.0.0.1', () => console.log(`serving ${root} on http://127.0.0.1:${port}/`));
