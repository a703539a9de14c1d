// `serve --listen …` flags → the company-network listener's options (core/cli/listen-options.ts): syntax, which
// flags go together, RATEDESK_PUBLIC_HOSTS, and the listener's own refusals given before anything is opened.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostPort, parseListenArgs, type ListenArgValues } from '../../../../core/cli/listen-options';
import { makeCertificate, type TestCertificate } from '../../../helpers/tls';

let cert: TestCertificate;
beforeAll(() => {
  cert = makeCertificate(['rates.test']);
});
afterAll(() => cert.remove());

const parse = (values: ListenArgValues, env: NodeJS.ProcessEnv = {}) => parseListenArgs(values, env);
const message = (values: ListenArgValues, env: NodeJS.ProcessEnv = {}): string => {
  const r = parse(values, env);
  if (r.ok) throw new Error('expected a refusal');
  return r.message;
};

describe('parseHostPort', () => {
  it.each([
    ['127.0.0.1:8443', { host: '127.0.0.1', port: 8443 }],
    ['0.0.0.0:0', { host: '0.0.0.0', port: 0 }],
    ['[::]:8443', { host: '::', port: 8443 }],
    ['[FD00::5]:443', { host: 'fd00::5', port: 443 }],
    ['localhost:8787', { host: 'localhost', port: 8787 }],
  ])('%s', (text, want) => {
    expect(parseHostPort(text)).toEqual(want);
  });

  it.each([
    '8443',
    '127.0.0.1',
    ':8443',
    '::1:8443',
    '[::1]',
    'rates.test:8443',
    '[127.0.0.1]:1',
    '10.0.0:1',
    '1.2.3.4:x',
  ])('refuses %s with the expected form', (text) => {
    expect(parseHostPort(text)).toMatch(/--listen wants HOST:PORT .*\[::\]:8443/);
  });

  it('refuses a port over 65535', () => {
    expect(parseHostPort('0.0.0.0:65536')).toMatch(/port must be from 0 to 65535/);
  });
});

describe('parseListenArgs', () => {
  const tls = () => ({ 'tls-cert': cert.certFile, 'tls-key': cert.keyFile });

  it('without --listen: no company options (the loopback listener, as before)', () => {
    expect(parse({ host: '127.0.0.1', port: '0' })).toEqual({ ok: true, listen: null });
    // The variable alone changes nothing: it is read only with --listen.
    expect(parse({}, { RATEDESK_PUBLIC_HOSTS: 'rates.test' })).toEqual({ ok: true, listen: null });
  });

  it('the company flags need --listen', () => {
    expect(message({ ...tls() })).toBe('--tls-cert, --tls-key only work with --listen HOST:PORT.');
    expect(message({ 'trust-proxy': true })).toBe('--trust-proxy only work with --listen HOST:PORT.');
    expect(message({ 'public-host': ['a.test'] })).toMatch(/--public-host only work with --listen/);
  });

  it('--listen replaces --host, --port and --allow-remote', () => {
    expect(message({ listen: '127.0.0.1:0', host: '0.0.0.0', 'allow-remote': true })).toBe(
      '--listen HOST:PORT replaces --host, --allow-remote: give only --listen.',
    );
  });

  it('TLS needs both files', () => {
    expect(message({ listen: '0.0.0.0:0', 'tls-cert': cert.certFile })).toMatch(
      /both --tls-cert FILE and --tls-key FILE/,
    );
    expect(message({ listen: '0.0.0.0:0', 'tls-key': cert.keyFile })).toMatch(/both --tls-cert/);
  });

  it('a bad certificate path is refused with its flag', () => {
    const missing = join(cert.dir, 'missing.pem');
    expect(
      message({
        listen: '0.0.0.0:0',
        'tls-cert': missing,
        'tls-key': cert.keyFile,
        'public-host': ['rates.test'],
      }),
    ).toBe(`Cannot read the TLS certificate ${missing} (--tls-cert): no such file.`);
  });

  it('the listener rules are applied before start: no TLS or proxy, no public host', () => {
    expect(message({ listen: '0.0.0.0:8443', 'public-host': ['rates.test'] })).toMatch(
      /Refusing to listen on 0\.0\.0\.0 without TLS/,
    );
    expect(message({ listen: '[::]:8443', ...tls() })).toMatch(/needs the host names clients use/);
    expect(message({ listen: '203.0.113.9:8787', 'trust-proxy': true, 'public-host': ['a.test'] })).toMatch(
      /Refusing --trust-proxy on the public address/,
    );
  });

  it('a bad public host is refused with its value', () => {
    expect(message({ listen: '0.0.0.0:0', ...tls(), 'public-host': ['https://rates.test'] })).toMatch(
      /Public host "https:\/\/rates\.test" is not a host name/,
    );
  });

  it('public hosts from the flags, else from RATEDESK_PUBLIC_HOSTS; normalised and deduplicated', () => {
    const env = { RATEDESK_PUBLIC_HOSTS: ' Rates.Test , alt.test:8443,, ' };
    const fromEnv = parse({ listen: '0.0.0.0:8443', ...tls() }, env);
    expect(fromEnv.ok && fromEnv.listen?.company.publicHosts).toEqual(['rates.test', 'alt.test:8443']);
    const fromFlags = parse({ listen: '0.0.0.0:8443', ...tls(), 'public-host': ['b.test', 'B.test'] }, env);
    expect(fromFlags.ok && fromFlags.listen?.company.publicHosts).toEqual(['b.test']);
  });

  it('TLS mode: the files are read once here and handed to the listener', () => {
    const r = parse({ listen: '[::]:8443', ...tls(), 'public-host': ['rates.test'] });
    expect(r.ok).toBe(true);
    if (!r.ok || !r.listen) return;
    expect(r.listen.host).toBe('::');
    expect(r.listen.port).toBe(8443);
    expect(r.listen.company.tls?.cert.equals(cert.cert)).toBe(true);
    expect(r.listen.company.trustProxy).toBe(false);
  });

  it('proxy mode on a loopback or private address; a loopback --listen needs nothing more', () => {
    const proxied = parse({ listen: '10.0.0.5:8787', 'trust-proxy': true, 'public-host': ['rates.test'] });
    expect(proxied.ok && proxied.listen?.company).toEqual({
      publicHosts: ['rates.test'],
      trustProxy: true,
      tls: null,
    });
    const local = parse({ listen: '127.0.0.1:8787' });
    expect(local.ok && local.listen).toEqual({
      host: '127.0.0.1',
      port: 8787,
      company: { publicHosts: [], trustProxy: false, tls: null },
    });
  });
});
