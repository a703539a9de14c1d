// Maps an app://ratedesk/… request to a file under the renderer build. Pure (no fs), so every traversal
// trick is unit-tested without Electron; protocol.ts adds the file-system checks (existence, symlinks).
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isTrustedRendererUrl } from './trusted-url';

export type RendererPath = { ok: true; file: string; mime: string } | { ok: false; status: 400 | 403 | 404 };

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Unknown types go out as opaque bytes; with nosniff the page cannot run them as script or style. */
export function mimeTypeOf(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

// Encoded separators, dots, backslash, NUL and percent (double encoding) have no business in a URL of a
// Vite build; decoding them after the URL parser has normalised the path is how "..%2f" traversals usually
// slip through.
const ENCODED_FORBIDDEN = /%(?:2e|2f|5c|00|25)/i;

export function resolveRendererPath(root: string, requestUrl: string): RendererPath {
  if (!isAbsolute(root)) throw new Error(`renderer root must be absolute: ${root}`);
  if (!isTrustedRendererUrl(requestUrl)) return { ok: false, status: 403 };
  const pathname = new URL(requestUrl).pathname;
  if (ENCODED_FORBIDDEN.test(pathname)) return { ok: false, status: 400 };

  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 400 };
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return { ok: false, status: 400 };

  const relativePath = segments.length === 0 ? 'index.html' : segments.join('/');
  const base = resolve(root);
  const file = resolve(base, relativePath);
  // The decisive check: whatever the string looked like, the result must stay inside the root.
  const rel = relative(base, file);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
    return { ok: false, status: 403 };
  return { ok: true, file, mime: mimeTypeOf(file) };
}
