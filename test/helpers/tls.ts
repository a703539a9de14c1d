// Test certificates made at test time with Debian's `openssl` CLI (self-signed, P-256, valid two days), and the
// HTTPS client side of the company-network listener's tests: requests with every header under the test's
// control (Host included), raw exchanges over TLS, and plain TCP to the TLS port.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { parseResponse, type RawResponse } from './raw-http';
import type { HttpResult, RawRequest } from './service';

export interface TestCertificate {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
  remove(): void;
}

/** A self-signed certificate for `dnsNames` and `ips` (subjectAltName), its key unencrypted, in a temp dir. */
export function makeCertificate(dnsNames: string[], ips: string[] = ['127.0.0.1']): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const san = [...dnsNames.map((n) => `DNS:${n}`), ...ips.map((ip) => `IP:${ip}`)].join(',');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        `/CN=${dnsNames[0] ?? ips[0]}`,
        '-addext',
        `subjectAltName=${san}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing ? 'the TLS tests need the openssl CLI (Debian: apt-get install openssl)' : String(err),
      { cause: err },
    );
  }
  return {
    dir,
    certFile,
    keyFile,
    cert: readFileSync(certFile),
    key: readFileSync(keyFile),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** How the test client reaches the listener: trust `ca`, present `servername` in SNI and check it. */
export interface TlsClient {
  ca: Buffer;
  servername: string;
}

/** rawRequest over HTTPS; `Host` defaults to `servername:port`. */
export function httpsRawRequest(port: number, client: TlsClient, r: RawRequest): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {
      ...(r.noHost ? {} : { Host: `${client.servername}:${port}` }),
      ...r.headers,
    };
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method: r.method ?? 'GET',
        path: r.path,
        headers,
        setHost: false,
        ca: client.ca,
        servername: client.servername,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

/** Outcome of a TLS handshake attempt. */
export type Handshake = { ok: true; protocol: string | null } | { ok: false; code: string };

/** Connects over TLS with `options` (e.g. only TLS 1.1), reports whether the handshake completed. */
export function tryHandshake(
  port: number,
  client: TlsClient,
  options: ConnectionOptions = {},
): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port,
      ca: client.ca,
      servername: client.servername,
      ...options,
    });
    socket.once('secureConnect', () => {
      resolve({ ok: true, protocol: socket.getProtocol() });
      socket.destroy();
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      resolve({ ok: false, code: err.code ?? err.message }),
    );
  });
}

/** Sends `data` over TLS and collects what comes back until the server closes or `waitMs` passes. */
export function tlsExchange(
  port: number,
  client: TlsClient,
  data: string | Buffer,
  waitMs = 3_000,
): Promise<RawResponse> {
  return collect(
    () => tlsConnect({ host: '127.0.0.1', port, ca: client.ca, servername: client.servername }),
    'secureConnect',
    data,
    waitMs,
  );
}

/** Sends `data` in plain TCP (no TLS) and collects every byte the server sends back until it closes. */
export function plainExchange(port: number, data: string | Buffer, waitMs = 3_000): Promise<RawResponse> {
  return collect(() => tcpConnect(port, '127.0.0.1'), 'connect', data, waitMs);
}

function collect(
  open: () => ReturnType<typeof tcpConnect>,
  ready: 'connect' | 'secureConnect',
  data: string | Buffer,
  waitMs: number,
): Promise<RawResponse> {
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = open();
    const done = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ text, closed, elapsedMs: performance.now() - started, ...parseResponse(text) });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.once(ready, () => socket.write(data));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => done(true));
  });
}
