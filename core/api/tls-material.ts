// The certificate and key of the company-network listener (`serve --tls-cert FILE --tls-key FILE`): read and
// checked once at start (and on SIGHUP), so that a wrong file is a clear message at start, not a handshake
// failure on the first client. The TLS settings of the listener live here too, one place for start and reload.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { splitHostPort } from './company-listen';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

export interface TlsMaterial extends TlsFiles {
  cert: Buffer;
  key: Buffer;
  certificate: X509Certificate;
}

/**
 * TLS 1.0 and 1.1 are deprecated (RFC 8996). Node's default minimum is already 1.2, but `--tls-min-v1.0` or
 * NODE_OPTIONS could lower it for the whole process; the listener states its own.
 */
export const TLS_MIN_VERSION = 'TLSv1.2';
/** A connection that has not finished its handshake by then is closed (Node's default: 120 s). */
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/** The secure-context options of the listener; setSecureContext() resets what it is not given, so reload uses this too. */
export function secureContextOptions(material: TlsMaterial): SecureContextOptions {
  return { cert: material.cert, key: material.key, minVersion: TLS_MIN_VERSION };
}

/** Reads and checks both files; throws an Error whose message says which file is wrong and what to do. */
export function readTlsMaterial(files: TlsFiles): TlsMaterial {
  const cert = readOne(files.certFile, '--tls-cert', 'certificate');
  const key = readOne(files.keyFile, '--tls-key', 'private key');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (err) {
    throw new Error(
      `${files.certFile} (--tls-cert) is not a PEM certificate (${reason(err)}). ` +
        'Give the server certificate, optionally followed by its chain.',
      { cause: err },
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new Error(
      `${files.keyFile} (--tls-key) is not an unencrypted PEM private key (${reason(err)}). ` +
        'A key with a passphrase is not supported: decrypt it (openssl pkey -in KEY -out KEY.plain).',
      { cause: err },
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new Error(
      `The key in ${files.keyFile} (--tls-key) does not belong to the certificate in ${files.certFile} ` +
        '(--tls-cert). Give the key the certificate was issued for.',
    );
  }
  const material: TlsMaterial = { ...files, cert, key, certificate };
  try {
    // What the listener will build: anything else OpenSSL refuses (a weak key, a broken chain) shows here.
    createSecureContext(secureContextOptions(material));
  } catch (err) {
    throw new Error(`TLS refuses ${files.certFile} with ${files.keyFile}: ${reason(err)}`, { cause: err });
  }
  return material;
}

/** What an operator should hear about a certificate that works but will not satisfy clients. */
export function tlsWarnings(material: TlsMaterial, publicHosts: readonly string[], now: Date): string[] {
  const out: string[] = [];
  const c = material.certificate;
  const notAfter = new Date(c.validTo);
  if (notAfter.getTime() <= now.getTime()) {
    out.push(`the TLS certificate ${material.certFile} expired on ${notAfter.toISOString()}`);
  } else if (new Date(c.validFrom).getTime() > now.getTime()) {
    out.push(`the TLS certificate ${material.certFile} is not valid before ${c.validFrom}`);
  }
  for (const entry of publicHosts) {
    const bracketed = splitHostPort(entry).name;
    const name = bracketed.startsWith('[') ? bracketed.slice(1, -1) : bracketed;
    const covered = isIP(name) ? c.checkIP(name) !== undefined : c.checkHost(name) !== undefined;
    if (!covered) out.push(`the TLS certificate ${material.certFile} does not name the public host ${name}`);
  }
  return out;
}

function readOne(file: string, flag: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a folder'
            : reason(err);
    throw new Error(`Cannot read the TLS ${what} ${file} (${flag}): ${why}.`, { cause: err });
  }
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
