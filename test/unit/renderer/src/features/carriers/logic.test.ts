import { describe, expect, it } from 'vitest';
import { checkCredentials } from '../../../../../../renderer/src/features/carriers/logic';

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
