// Settings through the store port: writes all or nothing (null removes), get / all / snapshot, and secret
// settings sealed at rest with the SecretStore the store was opened with.
import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../../../core/settings/secrets';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { NOW, testSecrets, useStore } from './harness';

const SECRET = 'carriers.cdek.client_secret';
const LATER = '2025-03-02T08:30:00.000Z';

describe.each(STORE_IMPLEMENTATIONS)('settings ($name)', (impl) => {
  describe('plain', () => {
    const fx = useStore(impl);

    it('writes, reads one, reads all, and removes with null', async () => {
      const { store } = fx;
      expect(await store.settings.get('ui.language')).toBeUndefined();
      expect(await store.settings.all()).toEqual(new Map());

      await store.settings.write(
        [
          { name: 'ui.language', value: 'en' },
          { name: 'listener.port', value: '9000' },
          { name: 'sandbox', value: 'off' },
        ],
        NOW,
      );
      expect(await store.settings.get('ui.language')).toBe('en');
      expect(await store.settings.all()).toEqual(
        new Map([
          ['listener.port', '9000'],
          ['sandbox', 'off'],
          ['ui.language', 'en'],
        ]),
      );
      expect(new Map(store.settings.snapshot())).toEqual(await store.settings.all());

      await store.settings.write(
        [
          { name: 'listener.port', value: null },
          { name: 'ui.language', value: 'ru' },
        ],
        LATER,
      );
      expect(await store.settings.get('listener.port')).toBeUndefined();
      expect(await store.settings.all()).toEqual(
        new Map([
          ['sandbox', 'off'],
          ['ui.language', 'ru'],
        ]),
      );
      expect(new Map(store.settings.snapshot())).toEqual(await store.settings.all());
      // Removing what is not there is no error.
      await store.settings.write([{ name: 'ui.theme', value: null }], LATER);
      expect(await store.settings.get('ui.theme')).toBeUndefined();
    });

    it('keeps the empty string as a value, distinct from a removed setting', async () => {
      const { store } = fx;
      await store.settings.write([{ name: 'carriers.cdek.client_id', value: '' }], NOW);
      expect(await store.settings.get('carriers.cdek.client_id')).toBe('');
      expect((await store.settings.all()).has('carriers.cdek.client_id')).toBe(true);
    });

    it('keeps settings across a reopen', async () => {
      await fx.store.settings.write([{ name: 'ui.theme', value: 'dark' }], NOW);
      const reopened = await fx.opened.reopen();
      expect(await reopened.settings.get('ui.theme')).toBe('dark');
      expect(reopened.settings.snapshot().get('ui.theme')).toBe('dark');
    });

    it('seals nothing when the store keeps secrets as plain text', async () => {
      const { store } = fx;
      await store.settings.write([{ name: SECRET, value: 'hunter2' }], NOW);
      expect(await store.settings.sealPlainSecrets(NOW)).toBe(0);
      expect(await store.settings.get(SECRET)).toBe('hunter2');
    });
  });

  describe('with a SecretStore', () => {
    const fx = useStore(impl, { secrets: testSecrets });

    it('seals secret settings at rest and opens them on read', async () => {
      const { store } = fx;
      await store.settings.write(
        [
          { name: SECRET, value: 'hunter2' },
          { name: 'carriers.cdek.client_id', value: 'acme-shop' },
        ],
        NOW,
      );
      expect(await store.settings.get(SECRET)).toBe('hunter2');
      expect((await store.settings.all()).get(SECRET)).toBe('hunter2');
      expect(store.settings.snapshot().get(SECRET)).toBe('hunter2');

      // An instance without the keychain sees the stored form: sealed, so not configured ('').
      const plain = await fx.opened.openSecond();
      expect(await plain.settings.get(SECRET)).toBe('');
      expect(await plain.settings.get('carriers.cdek.client_id')).toBe('acme-shop');
    });

    it('seals the secrets another instance left as plain text', async () => {
      const { store } = fx;
      const plain = await fx.opened.openSecond();
      await plain.settings.write(
        [
          { name: SECRET, value: 'typed-in-cli' },
          { name: 'ui.language', value: 'en' },
        ],
        NOW,
      );
      expect(await plain.settings.get(SECRET)).toBe('typed-in-cli');
      expect(await store.settings.sealPlainSecrets(LATER)).toBe(1);
      expect(await store.settings.sealPlainSecrets(LATER)).toBe(0);
      expect(await store.settings.get(SECRET)).toBe('typed-in-cli');
      expect(await plain.settings.get(SECRET)).toBe('');
      expect(await plain.settings.get('ui.language')).toBe('en');
    });
  });

  describe('with a SecretStore that binds a value to its setting', () => {
    // The server key's store (settings/server-secrets.ts) seals each value for the setting it is stored
    // under: every implementation must hand seal and open that name, and must not take another host's
    // sealed form for plain text.
    const calls: string[] = [];
    const bound: SecretStore = {
      encrypting: true,
      seal: (plain, name) => {
        calls.push(`seal ${name}`);
        return `enc:${Buffer.from(`${name}\n${plain}`, 'utf8').toString('base64')}`;
      },
      open: (stored, name) => {
        calls.push(`open ${name}`);
        if (!stored.startsWith('enc:')) return stored;
        const [boundTo, plain] = Buffer.from(stored.slice(4), 'base64').toString('utf8').split('\n');
        return boundTo === name ? (plain ?? '') : '';
      },
    };
    const fx = useStore(impl, { secrets: bound });
    const OTHER = 'carriers.pek.api_key';

    it('seal and open get the setting name, on write, read and sealPlainSecrets alike', async () => {
      const { store } = fx;
      calls.length = 0;
      await store.settings.write([{ name: SECRET, value: 'hunter2' }], NOW);
      expect(await store.settings.get(SECRET)).toBe('hunter2');
      expect(calls).toContain(`seal ${SECRET}`);
      expect(calls).toContain(`open ${SECRET}`);
      expect(calls.every((c) => c.endsWith(SECRET))).toBe(true);

      const plain = await fx.opened.openSecond();
      await plain.settings.write([{ name: OTHER, value: 'left-plain' }], NOW);
      calls.length = 0;
      expect(await store.settings.sealPlainSecrets(LATER)).toBe(1);
      expect(calls).toContain(`seal ${OTHER}`);
      expect(await store.settings.get(OTHER)).toBe('left-plain');
    });

    it('leaves a value sealed with a server key (srv1:) as it is', async () => {
      const { store } = fx;
      const plain = await fx.opened.openSecond();
      // A host without the key writes through a plain store: the stored form goes in unchanged.
      await plain.settings.write([{ name: SECRET, value: 'srv1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }], NOW);
      expect(await store.settings.sealPlainSecrets(LATER)).toBe(0);
      expect(await plain.settings.get(SECRET)).toBe('');
    });
  });

  describe('all or nothing', () => {
    // Sealing fails for one value: the write that contains it must leave every setting as it was.
    const failing: SecretStore = {
      encrypting: true,
      seal: (plain, name) => {
        if (plain === 'explode') throw new Error('keychain locked');
        return testSecrets.seal(plain, name);
      },
      open: testSecrets.open,
    };
    const fx = useStore(impl, { secrets: failing });

    it('writes none of the changes when one of them fails', async () => {
      const { store } = fx;
      await store.settings.write([{ name: 'ui.theme', value: 'light' }], NOW);
      await expect(
        store.settings.write(
          [
            { name: 'ui.language', value: 'en' },
            { name: 'ui.theme', value: null },
            { name: SECRET, value: 'explode' },
          ],
          LATER,
        ),
      ).rejects.toThrow();
      expect(await store.settings.get('ui.language')).toBeUndefined();
      expect(await store.settings.get('ui.theme')).toBe('light');
      expect(await store.settings.get(SECRET)).toBeUndefined();
      expect(store.settings.snapshot().get('ui.theme')).toBe('light');
      expect(store.settings.snapshot().has('ui.language')).toBe(false);
    });
  });
});
