import { describe, expect, it } from 'vitest';
import { addressChoice, checkCredentials } from '../../../../../../renderer/src/features/carriers/logic';

describe('checkCredentials', () => {
  it('an account id and a secret: both needed, no spaces, at most 200 characters', () => {
    expect(checkCredentials({ clientId: 'acc', newSecret: 's3cr3t', hasSecret: false })).toEqual([]);
    expect(checkCredentials({ clientId: '', newSecret: 's3cr3t', hasSecret: false })).toEqual([
      { field: 'client_id', problem: 'missing' },
    ]);
    expect(checkCredentials({ clientId: 'acc', newSecret: '', hasSecret: false })).toEqual([
      { field: 'client_secret', problem: 'missing' },
    ]);
    expect(checkCredentials({ clientId: 'acc', newSecret: '', hasSecret: true })).toEqual([]);
    expect(checkCredentials({ clientId: 'a c', newSecret: 'x'.repeat(201), hasSecret: false })).toEqual([
      { field: 'client_id', problem: 'spaces' },
      { field: 'client_secret', problem: 'length' },
    ]);
  });

  it('a carrier whose account is an API key alone: no id is asked for', () => {
    expect(checkCredentials({ clientId: null, newSecret: 'token123', hasSecret: false })).toEqual([]);
    expect(checkCredentials({ clientId: null, newSecret: 'to ken', hasSecret: false })).toEqual([
      { field: 'client_secret', problem: 'spaces' },
    ]);
    expect(checkCredentials({ clientId: null, newSecret: 'x'.repeat(201), hasSecret: true })).toEqual([
      { field: 'client_secret', problem: 'length' },
    ]);
  });
});

describe('addressChoice (#17 item 9: one control for where a carrier is reached)', () => {
  const cdek = { hosts: { production: 'https://api.cdek.ru/v2', test: 'https://api.edu.cdek.ru/v2' } };
  const post = { hosts: { production: 'https://tariff.pochta.ru', test: null } };

  it('an address of one’s own is custom, as typed (trimmed)', () => {
    expect(addressChoice(cdek, '  https://proxy.local:8443/cdek ')).toEqual({
      endpoint: 'custom',
      base_url: 'https://proxy.local:8443/cdek',
    });
  });

  it('the carrier’s own hosts typed by hand are those choices (slash and host case aside)', () => {
    expect(addressChoice(cdek, 'https://api.cdek.ru/v2')).toEqual({ endpoint: 'production' });
    expect(addressChoice(cdek, 'https://API.cdek.ru/v2/')).toEqual({ endpoint: 'production' });
    expect(addressChoice(cdek, 'https://api.edu.cdek.ru/v2')).toEqual({ endpoint: 'test' });
    expect(addressChoice(post, 'https://tariff.pochta.ru/')).toEqual({ endpoint: 'production' });
  });

  it('another path or scheme on the same host is not the published address', () => {
    expect(addressChoice(cdek, 'https://api.cdek.ru/v1').endpoint).toBe('custom');
    expect(addressChoice(cdek, 'http://api.cdek.ru/v2').endpoint).toBe('custom');
  });
});
