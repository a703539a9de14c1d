// How a desk trusts its company server (#20): the certificate's SHA-256 pinned at first contact, or a
// company CA file. The check runs on the TLS socket as soon as the handshake completes and BEFORE the socket
// is handed to HTTP, so a server with another certificate never receives a request, let alone the token.
import { X509Certificate } from 'node:crypto';
import { connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { isIP } from 'node:net';

export type ServerTrust = { kind: 'pin'; fingerprint: string } | { kind: 'ca'; pem: string };

/** A pinned certificate that does not match, or a CA that does not vouch for it: never retried. */
export class TrustRefusedError extends Error {
  override readonly name = 'TrustRefusedError';
}

/** The handshake must complete within this; a server that accepts and says nothing is offline. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** "ab:cd…", "ABCD…" or with spaces → "AB:CD:…" (what `openssl x509 -fingerprint -sha256` prints). */
export function normaliseFingerprint(text: string): string | undefined {
  const hex = text
    .replace(/^sha-?256\s*(fingerprint)?\s*=?/i, '')
    .replace(/[\s:]/g, '')
    .toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return undefined;
  return hex.match(/../g)!.join(':');
}

export interface Endpoint {
  host: string;
  port: number;
  /** SNI and the CA check's name; absent for an IP address (SNI carries names only). */
  servername?: string;
}

export function endpointOf(url: URL): Endpoint {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port: url.port === '' ? 443 : Number(url.port),
    ...(isIP(host) === 0 ? { servername: host } : {}),
  };
}

/** A TLS connection whose server passed `trust`; rejects with TrustRefusedError when it did not. */
export function connectTrusted(endpoint: Endpoint, trust: ServerTrust): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: endpoint.host,
      port: endpoint.port,
      ...(endpoint.servername ? { servername: endpoint.servername } : {}),
      minVersion: 'TLSv1.2',
      // A pin replaces the CA check (a self-signed company certificate has no CA); a CA file is checked the
      // usual way, host name included.
      ...(trust.kind === 'ca' ? { ca: trust.pem, rejectUnauthorized: true } : { rejectUnauthorized: false }),
    });
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    const onTimeout = (): void => fail(new Error('the company server did not answer in time'));
    const onError = (error: NodeJS.ErrnoException): void => {
      // The CA check failed: the certificate is not what the company's CA issued for this name.
      if (trust.kind === 'ca' && isCertificateError(error)) {
        fail(
          new TrustRefusedError(
            `the server's certificate is not issued by the company CA (${error.code ?? error.message})`,
          ),
        );
      } else fail(error);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    socket.once('timeout', onTimeout);
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      if (trust.kind === 'pin') {
        const seen = fingerprintOf(socket.getPeerCertificate());
        if (seen !== normaliseFingerprint(trust.fingerprint)) {
          fail(
            new TrustRefusedError(
              `the server's certificate (${seen ?? 'none'}) is not the one this desk pinned`,
            ),
          );
          return;
        }
      }
      socket.setTimeout(0);
      socket.off('timeout', onTimeout);
      socket.off('error', onError);
      // HTTP adds its own listener when it takes the socket; until then an error must not go unheard.
      socket.on('error', () => {});
      resolve(socket);
    });
  });
}

export function fingerprintOf(cert: PeerCertificate | undefined): string | undefined {
  if (!cert || !cert.raw) return undefined;
  return normaliseFingerprint(new X509Certificate(cert.raw).fingerprint256);
}

function isCertificateError(error: NodeJS.ErrnoException): boolean {
  const code = error.code ?? '';
  return /CERT|SELF_SIGNED|ERR_TLS_CERT_ALTNAME|UNABLE_TO_VERIFY|HOSTNAME/i.test(code);
}
