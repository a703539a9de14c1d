// Reading the listener's certificate and key (core/api/tls-material.ts): every wrong file is a message that
// names the file, its flag and what to do; a working certificate that clients will refuse is a warning.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readTlsMaterial,
  secureContextOptions,
  tlsWarnings,
  TLS_MIN_VERSION,
} from '../../../../core/api/tls-material';
import { makeCertificate, type TestCertificate } from '../../../helpers/tls';

let a: TestCertificate;
let b: TestCertificate;
beforeAll(() => {
  a = makeCertificate(['rates.test', 'alt.test'], ['127.0.0.1', '10.0.0.5']);
  b = makeCertificate(['other.test']);
});
afterAll(() => {
  a.remove();
  b.remove();
});

const read = (certFile: string, keyFile: string) => () => readTlsMaterial({ certFile, keyFile });

describe('readTlsMaterial', () => {
  it('reads a matching pair; the context it builds asks for TLS 1.2 at least', () => {
    const m = readTlsMaterial({ certFile: a.certFile, keyFile: a.keyFile });
    expect(m.cert.equals(a.cert)).toBe(true);
    expect(m.certificate.subject).toMatch(/CN=rates\.test/);
    expect(secureContextOptions(m)).toMatchObject({ minVersion: 'TLSv1.2' });
    expect(TLS_MIN_VERSION).toBe('TLSv1.2');
  });

  it('a missing file names the file and the flag', () => {
    expect(read(join(a.dir, 'nope.pem'), a.keyFile)).toThrow(
      `Cannot read the TLS certificate ${join(a.dir, 'nope.pem')} (--tls-cert): no such file.`,
    );
    expect(read(a.certFile, join(a.dir, 'nope.pem'))).toThrow(
      /private key .*nope\.pem \(--tls-key\): no such file/,
    );
    const folder = join(a.dir, 'folder');
    mkdirSync(folder);
    expect(read(folder, a.keyFile)).toThrow(/\(--tls-cert\): it is a folder/);
  });

  it('files swapped: the certificate is no certificate, the key no key', () => {
    expect(read(a.keyFile, a.keyFile)).toThrow(/key\.pem \(--tls-cert\) is not a PEM certificate/);
    expect(read(a.certFile, a.certFile)).toThrow(
      /cert\.pem \(--tls-key\) is not an unencrypted PEM private key/,
    );
  });

  it('an encrypted key is refused with the way to decrypt it', () => {
    const encrypted = join(a.dir, 'encrypted.pem');
    execFileSync('openssl', [
      'pkey',
      '-in',
      a.keyFile,
      '-aes256',
      '-passout',
      'pass:secret',
      '-out',
      encrypted,
    ]);
    expect(read(a.certFile, encrypted)).toThrow(/not an unencrypted PEM private key .*openssl pkey/);
  });

  it('a key of another certificate: says they do not belong together', () => {
    expect(read(a.certFile, b.keyFile)).toThrow(
      `The key in ${b.keyFile} (--tls-key) does not belong to the certificate in ${a.certFile} (--tls-cert).`,
    );
  });
});

describe('tlsWarnings', () => {
  it('none for names and addresses the certificate covers, while it is valid', () => {
    const m = readTlsMaterial({ certFile: a.certFile, keyFile: a.keyFile });
    expect(tlsWarnings(m, ['rates.test', 'alt.test:8443', '10.0.0.5'], new Date())).toEqual([]);
  });

  it('a public host the certificate does not name; expired; not yet valid', () => {
    const m = readTlsMaterial({ certFile: a.certFile, keyFile: a.keyFile });
    expect(tlsWarnings(m, ['rates.test', 'nope.test:443', '[fd00::5]'], new Date())).toEqual([
      `the TLS certificate ${a.certFile} does not name the public host nope.test`,
      `the TLS certificate ${a.certFile} does not name the public host fd00::5`,
    ]);
    const after = new Date(new Date(m.certificate.validTo).getTime() + 86_400_000);
    expect(tlsWarnings(m, [], after)[0]).toMatch(/expired on/);
    const before = new Date(new Date(m.certificate.validFrom).getTime() - 86_400_000);
    expect(tlsWarnings(m, [], before)[0]).toMatch(/is not valid before/);
  });
});
