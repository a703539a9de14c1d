// The URL predicates every guard relies on, held against the usual bypasses (Actual's trusted-url tests,
// Electron security checklist #13 and #15).
import { describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  originOf,
  isSafeExternalUrl,
  isTrustedRendererUrl,
} from '../../../../electron/main/trusted-url';

describe('isTrustedRendererUrl', () => {
  it.each([
    APP_ENTRY_URL,
    'app://ratedesk/',
    'app://ratedesk',
    'app://ratedesk/assets/index-abc.js',
    'app://ratedesk/#/history?x=1',
  ])('trusts %s', (url) => expect(isTrustedRendererUrl(url)).toBe(true));

  it.each([
    ['a look-alike host', 'app://ratedesk.evil/'],
    ['a host with the name as prefix', 'app://ratedeskevil/'],
    ['credentials before another host', 'app://ratedesk@evil/'],
    ['credentials before our host', 'app://evil@ratedesk/'],
    ['user and password', 'app://a:b@ratedesk/'],
    ['a port', 'app://ratedesk:80/'],
    ['another case of the host', 'app://RateDesk/'],
    ['no host', 'app:///ratedesk/index.html'],
    ['an opaque path', 'app:ratedesk/index.html'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: wearing our name', 'javascript://ratedesk/%0aalert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['file: wearing our name', 'file://ratedesk/index.html'],
    ['http loopback', 'http://127.0.0.1:8787/'],
    ['http localhost', 'http://localhost/'],
    ['https with our name', 'https://ratedesk/'],
    ['a Vite dev server', 'http://localhost:5173/'],
    ['about:blank', 'about:blank'],
    ['blob:', 'blob:app://ratedesk/1234'],
    ['chrome:', 'chrome://settings'],
    ['devtools:', 'devtools://devtools/bundled/inspector.html'],
    ['an empty string', ''],
    ['garbage', 'not a url'],
  ])('rejects %s', (_label, url) => expect(isTrustedRendererUrl(url)).toBe(false));
});

describe('isSafeExternalUrl', () => {
  it.each([
    'https://www.cdek.ru/',
    'http://example.com/a?b=c#d',
    'https://pochta.ru/tracking',
    'http://127.0.0.1:8787/v1/openapi.json',
  ])('allows %s', (url) => expect(isSafeExternalUrl(url)).toBe(true));

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///C:/Windows/System32/calc.exe'],
    ['smb:', 'smb://evil/share'],
    ['a custom handler', 'ms-settings:privacy'],
    ['our own scheme', 'app://ratedesk/'],
    ['data:', 'data:text/html,hi'],
    ['credentials', 'https://bank.ru@evil.example/'],
    ['user:password', 'https://u:p@example.com/'],
    ['no host at all', 'https://'],
    ['garbage', '%%%'],
    ['an empty string', ''],
  ])('refuses %s', (_label, url) => expect(isSafeExternalUrl(url)).toBe(false));
});

describe('originOf', () => {
  it('gives our scheme a real origin (Node says "null" for non-special schemes)', () => {
    expect(new URL('app://ratedesk/x').origin).toBe('null');
    expect(originOf('app://ratedesk/x')).toBe('app://ratedesk');
  });
  it('has no origin for URLs with credentials or without a host', () => {
    expect(originOf('app://x@ratedesk/')).toBeNull();
    expect(originOf('app:ratedesk')).toBeNull();
    expect(originOf('nonsense')).toBeNull();
  });
});
