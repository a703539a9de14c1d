// The app:// protocol: path resolution against traversal tricks (pure), then the full request → response
// path on a real folder (MIME types, CSP, GET only, symlinks leading out).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mimeTypeOf, resolveRendererPath } from '../../../electron/main/renderer-path';
import { RENDERER_CSP, serveRendererRequest } from '../../../electron/main/renderer-server';

const ROOT = join(sep, 'opt', 'ratedesk', 'dist', 'renderer');

describe('resolveRendererPath', () => {
  it('maps the origin to index.html and paths to files under the root', () => {
    expect(resolveRendererPath(ROOT, 'app://ratedesk/')).toEqual({
      ok: true,
      file: join(ROOT, 'index.html'),
      mime: 'text/html; charset=utf-8',
    });
    expect(resolveRendererPath(ROOT, 'app://ratedesk/assets/index-Ab1.js?v=1#x')).toMatchObject({
      ok: true,
      file: join(ROOT, 'assets', 'index-Ab1.js'),
      mime: 'text/javascript; charset=utf-8',
    });
    expect(resolveRendererPath(ROOT, 'app://ratedesk/fonts/Inter%20Var.woff2')).toMatchObject({
      ok: true,
      file: join(ROOT, 'fonts', 'Inter Var.woff2'),
    });
  });

  it.each([
    // The URL parser already folds these into the root, so they can only ever reach files inside it.
    ['plain dot-dot', 'app://ratedesk/../../etc/passwd', join(ROOT, 'etc', 'passwd')],
    [
      'encoded dots the parser understands',
      'app://ratedesk/%2e%2e/%2E%2E/etc/passwd',
      join(ROOT, 'etc', 'passwd'),
    ],
  ])('keeps %s inside the root', (_label, url, file) => {
    expect(resolveRendererPath(ROOT, url)).toMatchObject({ ok: true, file });
  });

  it.each([
    ['an encoded slash', 'app://ratedesk/..%2f..%2fetc%2fpasswd'],
    ['an encoded backslash', 'app://ratedesk/..%5c..%5cwindows%5cwin.ini'],
    ['a double-encoded dot-dot', 'app://ratedesk/%252e%252e/etc/passwd'],
    ['an encoded dot in a name', 'app://ratedesk/assets/x%2ejs'],
    ['an encoded NUL', 'app://ratedesk/index.html%00.png'],
    ['a malformed escape', 'app://ratedesk/%E0%A4%A'],
  ])('rejects %s with 400', (_label, url) => {
    expect(resolveRendererPath(ROOT, url)).toEqual({ ok: false, status: 400 });
  });

  it.each([
    ['another host', 'app://evil/index.html'],
    ['credentials', 'app://x@ratedesk/index.html'],
    ['another scheme', 'file:///etc/passwd'],
    ['an absolute file path', '/etc/passwd'],
    ['a Windows path', 'C:\\Windows\\win.ini'],
  ])('refuses %s with 403', (_label, url) => {
    expect(resolveRendererPath(ROOT, url)).toEqual({ ok: false, status: 403 });
  });

  it('refuses a relative root (a programming error, not a request error)', () => {
    expect(() => resolveRendererPath('dist/renderer', 'app://ratedesk/')).toThrow(/absolute/);
  });

  it('knows the MIME types of a Vite build and sends the rest as opaque bytes', () => {
    expect(mimeTypeOf('a.css')).toBe('text/css; charset=utf-8');
    expect(mimeTypeOf('a.SVG')).toBe('image/svg+xml');
    expect(mimeTypeOf('a.woff2')).toBe('font/woff2');
    expect(mimeTypeOf('a.json')).toBe('application/json; charset=utf-8');
    expect(mimeTypeOf('a.png')).toBe('image/png');
    expect(mimeTypeOf('Makefile')).toBe('application/octet-stream');
    expect(mimeTypeOf('x.exe')).toBe('application/octet-stream');
  });
});

describe('serveRendererRequest', () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'ratedesk-protocol-'));
    root = join(base, 'renderer');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>RateDesk</title>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(base, 'secret.txt'), 'outside the root');
    symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'leak.js'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const get = (url: string, method = 'GET'): Promise<Response> =>
    serveRendererRequest(root, new Request(url, { method }));

  it('serves index.html with the CSP and nosniff', async () => {
    const res = await get('app://ratedesk/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>RateDesk</title>');
  });

  it('serves scripts as JavaScript', async () => {
    const res = await get('app://ratedesk/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('has the exact policy the brief asks for', () => {
    expect(RENDERER_CSP).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it.each(['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'])('answers %s with 405', async (method) => {
    const res = await get('app://ratedesk/index.html', method);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('answers a missing file and a folder with 404', async () => {
    expect((await get('app://ratedesk/nope.js')).status).toBe(404);
    expect((await get('app://ratedesk/assets')).status).toBe(404);
  });

  it('refuses a symlink that leads out of the root', async () => {
    const res = await get('app://ratedesk/assets/leak.js');
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('outside the root');
  });

  it('never serves a file outside the root, whatever the URL', async () => {
    for (const url of [
      'app://ratedesk/../secret.txt',
      'app://ratedesk/%2e%2e/secret.txt',
      'app://ratedesk/..%2fsecret.txt',
      'app://ratedesk/..%5csecret.txt',
      'app://ratedesk/assets/..%2f..%2fsecret.txt',
    ]) {
      const res = await get(url);
      expect(res.status, url).not.toBe(200);
    }
  });
});
