import { describe, expect, it } from 'vitest';
import { endpointOf, normaliseFingerprint } from '../../../../../core/desk/remote/trust';
import { bodyToInput, inputToBody, sseFrame } from '../../../../../core/desk/wire';

const HEX = 'ab'.repeat(32);
const CANONICAL = Array(32).fill('AB').join(':');

describe('fingerprints', () => {
  it('reads what openssl prints, lower case, without colons or with spaces as one form', () => {
    expect(normaliseFingerprint(CANONICAL)).toBe(CANONICAL);
    expect(normaliseFingerprint(HEX)).toBe(CANONICAL);
    expect(normaliseFingerprint(`sha256 Fingerprint=${CANONICAL}`)).toBe(CANONICAL);
    expect(normaliseFingerprint(HEX.replace(/(....)/g, '$1 '))).toBe(CANONICAL);
  });

  it('refuses anything that is not 32 bytes of hex', () => {
    expect(normaliseFingerprint(HEX.slice(2))).toBeUndefined();
    expect(normaliseFingerprint(`${HEX}ab`)).toBeUndefined();
    expect(normaliseFingerprint('zz'.repeat(32))).toBeUndefined();
    expect(normaliseFingerprint('')).toBeUndefined();
  });
});

describe('endpoints', () => {
  it('sends SNI for names only, and defaults to 443', () => {
    expect(endpointOf(new URL('https://rates.example.com/ratedesk'))).toEqual({
      host: 'rates.example.com',
      port: 443,
      servername: 'rates.example.com',
    });
    expect(endpointOf(new URL('https://127.0.0.1:8443'))).toEqual({ host: '127.0.0.1', port: 8443 });
    expect(endpointOf(new URL('https://[::1]:8443'))).toEqual({ host: '::1', port: 8443 });
  });
});

describe('the wire', () => {
  it('carries "no input" as null and back', () => {
    expect(inputToBody(undefined)).toBe('null');
    expect(bodyToInput(JSON.parse(inputToBody(undefined)))).toBeUndefined();
    expect(bodyToInput(JSON.parse(inputToBody({ a: 1 })))).toEqual({ a: 1 });
  });

  it('frames an event on one data line, whatever its text holds', () => {
    expect(sseFrame('balance:changed', { note: 'a\nb' })).toBe(
      'event: balance:changed\ndata: {"note":"a\\nb"}\n\n',
    );
  });
});
