// `npm run serve -- --listen …` as an operator runs it: a separate process over HTTPS with a certificate made
// for this run (the URL line says https://, the allow-list holds, plain HTTP gets nothing, SIGHUP picks up a
// renewed certificate), and the refusals that stop a wrong start before any data is opened.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process';
import { httpsRawRequest, makeCertificate, plainExchange, type TestCertificate } from '../../helpers/tls';

const PUBLIC = 'rates.test';

/** The fingerprint of the certificate the listener presents to a new connection (not verified here). */
function presented(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, servername: PUBLIC, rejectUnauthorized: false }, () => {
      resolve(s.getPeerX509Certificate()!.fingerprint256);
      s.destroy();
    });
    s.on('error', reject);
  });
}

describe('serve --listen over TLS', () => {
  let cert: TestCertificate;
  let s: ServeProcess;
  beforeAll(async () => {
    cert = makeCertificate([PUBLIC]);
    s = await startServeProcess(
      {},
      {
        listen: [
          '--listen',
          '127.0.0.1:0',
          '--tls-cert',
          cert.certFile,
          '--tls-key',
          cert.keyFile,
          '--public-host',
          PUBLIC,
        ],
      },
    );
  });
  afterAll(async () => {
    await s?.close();
    cert.remove();
  });

  it('prints an https:// URL, answers /v1/balance for the public host, refuses others, ignores plain HTTP', async () => {
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const client = { ca: cert.cert, servername: PUBLIC };
    const ok = await httpsRawRequest(s.port, client, {
      path: '/v1/balance',
      headers: { Authorization: `Bearer ${s.key}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ balance: 1_000_100 }); // the free 100 and the suite's top-up
    const evil = await httpsRawRequest(s.port, client, {
      path: '/v1/balance',
      headers: { Host: `evil.test:${s.port}`, Authorization: `Bearer ${s.key}` },
    });
    expect(evil.status).toBe(403);
    expect(evil.json.error.code).toBe('invalid_host');
    const plain = await plainExchange(s.port, `GET /v1/balance HTTP/1.1\r\nHost: ${PUBLIC}\r\n\r\n`);
    expect(plain.closed).toBe(true);
    expect(plain.text).not.toMatch(/HTTP\//);
    expect(s.stderr.join('\n')).toMatch(/company-network listener .*"tls":true/);
  });

  it('SIGHUP reloads the certificate files: new connections get the renewed certificate', async () => {
    const before = await presented(s.port);
    expect(before).toBe(new X509Certificate(cert.cert).fingerprint256);
    const renewed = makeCertificate([PUBLIC]);
    try {
      writeFileSync(cert.certFile, renewed.cert);
      writeFileSync(cert.keyFile, renewed.key);
      s.proc.kill('SIGHUP');
      const want = new X509Certificate(renewed.cert).fingerprint256;
      const deadline = Date.now() + 10_000;
      let now = before;
      while (now !== want && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        now = await presented(s.port);
      }
      expect(now).toBe(want);
      expect(s.alive()).toBe(true);
      expect(s.stderr.join('\n')).toMatch(/TLS certificate reloaded/);
    } finally {
      renewed.remove();
    }
  });
});

describe('serve --listen refusals (exit 2, before the data folder is opened)', () => {
  let cert: TestCertificate;
  let other: TestCertificate;
  let root: string;
  beforeAll(() => {
    cert = makeCertificate([PUBLIC]);
    other = makeCertificate([PUBLIC]);
    root = mkdtempSync(join(tmpdir(), 'ratedesk-listen-'));
  });
  afterAll(() => {
    cert.remove();
    other.remove();
    rmSync(root, { recursive: true, force: true });
  });

  const refused = (args: string[]): string => {
    const dataDir = join(root, `data-${Math.random()}`);
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dataDir, ...args],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false);
    return r.stderr;
  };

  it('a network address without TLS and without --trust-proxy', () => {
    expect(refused(['--listen', '0.0.0.0:0', '--public-host', PUBLIC])).toMatch(
      /^ratedesk serve: Refusing to listen on 0\.0\.0\.0 without TLS: API keys would cross the network in plain text\. Give --tls-cert FILE --tls-key FILE, or .*--trust-proxy\.\n$/,
    );
  });

  it('a network address without --public-host', () => {
    expect(refused(['--listen', '[::]:0', '--tls-cert', cert.certFile, '--tls-key', cert.keyFile])).toMatch(
      /needs the host names clients use .*--public-host NAME .*RATEDESK_PUBLIC_HOSTS/,
    );
  });

  it('a certificate path that does not exist, and a key of another certificate', () => {
    const missing = join(root, 'missing.pem');
    expect(
      refused([
        '--listen',
        '0.0.0.0:0',
        '--tls-cert',
        missing,
        '--tls-key',
        cert.keyFile,
        '--public-host',
        PUBLIC,
      ]),
    ).toContain(`Cannot read the TLS certificate ${missing} (--tls-cert): no such file.`);
    expect(
      refused([
        '--listen',
        '0.0.0.0:0',
        '--tls-cert',
        cert.certFile,
        '--tls-key',
        other.keyFile,
        '--public-host',
        PUBLIC,
      ]),
    ).toContain('does not belong to the certificate');
  });
});
