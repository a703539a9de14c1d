// Answers one request of the app:// protocol from the renderer build. Uses only web-standard Request and
// Response (globals in Node 20 and in Electron's main process), so it is tested in plain Node.
import { readFile, realpath, stat } from 'node:fs/promises';
import { relative, isAbsolute, sep } from 'node:path';
import { resolveRendererPath } from './renderer-path';

/** The page's only policy; the renderer loads nothing from anywhere but its own origin. */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': RENDERER_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
  // The build is small and local; stale assets after an update would be worse than re-reading them.
  'Cache-Control': 'no-cache',
};

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra },
  });
}

async function insideRoot(root: string, file: string): Promise<boolean> {
  // A symlink inside the build must not lead out of it.
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
  const rel = relative(realRoot, realFile);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

export async function serveRendererRequest(root: string, request: Request): Promise<Response> {
  if (request.method !== 'GET') return plain(405, 'Method Not Allowed', { Allow: 'GET' });
  const target = resolveRendererPath(root, request.url);
  if (!target.ok) return plain(target.status, target.status === 404 ? 'Not Found' : 'Forbidden');
  try {
    const info = await stat(target.file);
    if (!info.isFile()) return plain(404, 'Not Found');
    if (!(await insideRoot(root, target.file))) return plain(403, 'Forbidden');
    const body = await readFile(target.file);
    return new Response(body, { status: 200, headers: { ...SECURITY_HEADERS, 'Content-Type': target.mime } });
  } catch {
    return plain(404, 'Not Found');
  }
}
