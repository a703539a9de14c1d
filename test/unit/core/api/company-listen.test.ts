// The rules of the company-network listener (core/api/company-listen.ts) and its Host allow-list (guards.ts).
import { describe, expect, it } from 'vitest';
import {
  bindScope,
  checkCompanyListen,
  parsePublicHost,
  splitHostPort,
  type CompanyListen,
} from '../../../../core/api/company-listen';
import { publicAllowedHosts } from '../../../../core/api/guards';
import type { TlsMaterial } from '../../../../core/api/tls-material';

describe('bindScope', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['localhost', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.5', 'private'],
    ['169.254.10.1', 'private'],
    ['fd00::5', 'private'],
    ['fe80::1', 'private'],
    ['172.32.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['203.0.113.9', 'public'],
    ['2001:db8::1', 'public'],
  ])('%s is %s', (host, scope) => {
    expect(bindScope(host)).toBe(scope);
  });
});

const TLS = { certFile: 'c', keyFile: 'k' } as TlsMaterial;
const mode = (c: Partial<CompanyListen>): CompanyListen => ({
  publicHosts: [],
  trustProxy: false,
  tls: null,
  ...c,
});

describe('checkCompanyListen', () => {
  it('loopback needs neither TLS nor public hosts (the desk rule still holds there)', () => {
    expect(checkCompanyListen('127.0.0.1', 8443, mode({}))).toEqual({ refusal: null, warnings: [] });
    expect(checkCompanyListen('::1', 8443, mode({ trustProxy: true })).refusal).toBeNull();
  });

  it.each(['0.0.0.0', '10.0.0.5', '::', '203.0.113.9'])(
    'refuses %s without TLS and without --trust-proxy, and says what to give',
    (host) => {
      const { refusal } = checkCompanyListen(host, 8443, mode({ publicHosts: ['rates.example.com'] }));
      expect(refusal).toMatch(/without TLS/);
      expect(refusal).toMatch(/--tls-cert FILE --tls-key FILE/);
      expect(refusal).toMatch(/--trust-proxy/);
    },
  );

  it('refuses a network address without a public host name', () => {
    for (const c of [mode({ tls: TLS }), mode({ trustProxy: true })]) {
      const { refusal } = checkCompanyListen('0.0.0.0', 8443, c);
      expect(refusal).toMatch(/--public-host NAME/);
      expect(refusal).toMatch(/RATEDESK_PUBLIC_HOSTS/);
    }
  });

  it('refuses --trust-proxy without TLS on a public address; warns on an unspecified or private one', () => {
    const proxied = mode({ trustProxy: true, publicHosts: ['rates.example.com'] });
    expect(checkCompanyListen('203.0.113.9', 8787, proxied).refusal).toMatch(/public address/);
    const any = checkCompanyListen('0.0.0.0', 8787, proxied);
    expect(any.refusal).toBeNull();
    expect(any.warnings.join()).toMatch(/only the reverse proxy should reach/);
    expect(checkCompanyListen('10.0.0.5', 8787, proxied).refusal).toBeNull();
    // With TLS on the connection itself nothing crosses in clear, whoever connects.
    const both = checkCompanyListen('203.0.113.9', 8443, { ...proxied, tls: TLS });
    expect(both).toEqual({ refusal: null, warnings: [] });
  });

  it('accepts TLS on any address with a public host', () => {
    for (const host of ['0.0.0.0', '::', '203.0.113.9', '10.0.0.5']) {
      expect(checkCompanyListen(host, 8443, mode({ tls: TLS, publicHosts: ['a.test'] })).refusal).toBeNull();
    }
  });
});

describe('parsePublicHost', () => {
  it.each([
    ['rates.example.com', 'rates.example.com'],
    ['  Rates.Example.COM ', 'rates.example.com'],
    ['rates.example.com:8443', 'rates.example.com:8443'],
    ['ratedesk', 'ratedesk'],
    ['xn--80ak6aa92e.xn--p1ai', 'xn--80ak6aa92e.xn--p1ai'],
    ['10.0.0.5', '10.0.0.5'],
    ['10.0.0.5:8443', '10.0.0.5:8443'],
    ['[fd00::5]', '[fd00::5]'],
    ['[FD00::5]:443', '[fd00::5]:443'],
  ])('%s → %s', (text, value) => {
    expect(parsePublicHost(text)).toBe(value);
  });

  it.each([
    '',
    '*',
    '*.example.com',
    'https://rates.example.com',
    'rates.example.com/v1',
    'user@rates.example.com',
    'rates.example.com.',
    'rates..example.com',
    '-rates.example.com',
    'rates example.com',
    'rates.example.com:0',
    'rates.example.com:65536',
    'rates.example.com:08443',
    'rates.example.com:',
    'rates.example.com:8443:1',
    '10.0.0.256',
    '127.1',
    'fd00::5',
    '[fd00::5',
    '[not-v6]',
    'рейтс.рф',
  ])('refuses %j with a message naming it', (text) => {
    expect(() => parsePublicHost(text)).toThrow(/Public host ".*" .*Give a name like/);
  });
});

describe('publicAllowedHosts', () => {
  it('a bare name: bare, :443 and the listener port; a name with a port: that port only (bare too for 443)', () => {
    const hosts = publicAllowedHosts(
      ['rates.example.com', 'alt.example.com:9443', 'tls.example.com:443', '[fd00::5]', '10.0.0.5:8443'],
      8443,
    );
    expect([...hosts].sort()).toEqual(
      [
        'rates.example.com',
        'rates.example.com:443',
        'rates.example.com:8443',
        'alt.example.com:9443',
        'tls.example.com:443',
        'tls.example.com',
        '[fd00::5]',
        '[fd00::5]:443',
        '[fd00::5]:8443',
        '10.0.0.5:8443',
      ].sort(),
    );
  });

  it('splitHostPort keeps IPv6 brackets', () => {
    expect(splitHostPort('[fd00::5]:443')).toEqual({ name: '[fd00::5]', port: '443' });
    expect(splitHostPort('[fd00::5]')).toEqual({ name: '[fd00::5]', port: undefined });
    expect(splitHostPort('a.test:1')).toEqual({ name: 'a.test', port: '1' });
    expect(splitHostPort('a.test')).toEqual({ name: 'a.test', port: undefined });
  });
});
