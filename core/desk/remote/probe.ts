// First contact with a company server (#20): its certificate, shown by fingerprint so the clerk can compare
// it with what the administrator reads out (`openssl x509 -fingerprint -sha256`), before anything is sent.
// Nothing but a TLS handshake happens here.
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import type { ServerCertificate } from '../../contract/operations';
import { CONNECT_TIMEOUT_MS, endpointOf, normaliseFingerprint } from './trust';

export function probeServer(url: string): Promise<ServerCertificate> {
  const endpoint = endpointOf(new URL(url));
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: endpoint.host,
      port: endpoint.port,
      ...(endpoint.servername ? { servername: endpoint.servername } : {}),
      minVersion: 'TLSv1.2',
      // Whatever the certificate is, the clerk gets to see it; `trusted` says what the system's CAs think.
      rejectUnauthorized: false,
    });
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => fail(new Error('the company server did not answer in time')));
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      const peer = socket.getPeerCertificate();
      if (!peer.raw) return fail(new Error('the server presented no certificate'));
      const cert = new X509Certificate(peer.raw);
      const view: ServerCertificate = {
        fingerprint: normaliseFingerprint(cert.fingerprint256)!,
        subject: oneLine(cert.subject),
        issuer: oneLine(cert.issuer),
        valid_to: new Date(cert.validTo).toISOString(),
        trusted: socket.authorized,
      };
      socket.end();
      resolve(view);
    });
  });
}

/** X509Certificate's "CN=a\nO=b" as "CN=a, O=b". */
function oneLine(dn: string): string {
  return dn.split('\n').filter(Boolean).join(', ');
}
