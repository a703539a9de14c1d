// Carrier secrets at rest: encrypted through a safeStorage stand-in (same contract: string → opaque bytes →
// string), with the real core writing and reading them through its usual paths.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CarrierView, DeskResult } from '../../../../core/desk/contract';
import { createRatingService, type RatingService } from '../../../../core/service';
import { openStore, type SqliteStore } from '../../../../core/store';
import { silentLogger, type Logger } from '../../../../core/util/logger';
import {
  canEncrypt,
  ENCRYPTED_PREFIX,
  keychainSecrets,
  type SafeStorageLike,
} from '../../../../electron/main/credentials';

/** Reversible and keyed, like the real thing: another key cannot open it. */
function fakeSafeStorage(
  options: { available?: boolean; backend?: string; key?: number } = {},
): SafeStorageLike {
  const key = options.key ?? 0x5a;
  return {
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString: (plain) =>
      Buffer.concat([Buffer.from('v11'), Buffer.from(plain, 'utf8').map((b) => b ^ key), Buffer.from([key])]),
    decryptString: (enc) => {
      if (enc.subarray(0, 3).toString() !== 'v11' || enc[enc.length - 1] !== key)
        throw new Error('Error while decrypting the ciphertext');
      return Buffer.from(enc.subarray(3, -1).map((b) => b ^ key)).toString('utf8');
    },
  };
}

const SECRET_NAME = 'carriers.cdek.client_secret';
const dirs: string[] = [];
const services: RatingService[] = [];

afterEach(async () => {
  for (const s of services.splice(0)) await s.close().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function desk(
  safe: SafeStorageLike,
  dir = mkdtempSync(join(tmpdir(), 'ratedesk-creds-')),
  logger: Logger = silentLogger,
) {
  if (!dirs.includes(dir)) dirs.push(dir);
  // The core seals plain-text secrets at start and logs how many: read the count from that line.
  let sealed = 0;
  const log: Logger = {
    ...logger,
    info: (message, fields) => {
      if (message.startsWith('sealed carrier secrets')) sealed = Number(fields?.count);
      logger.info(message, fields);
    },
  };
  const codec = keychainSecrets(safe, 'linux', log);
  const service = await createRatingService({
    dataDir: dir,
    listen: false,
    simulatorLatencyMs: 0,
    secrets: codec,
    logger: log,
  });
  services.push(service);
  const call = async <T>(
    channel: 'carriers:update' | 'carriers:list' | 'settings:set',
    input: unknown,
  ): Promise<T> => {
    const r = (await service.desk.dispatch(channel, input)) as DeskResult<T>;
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value;
  };
  // The stored bytes, through the SQLite implementation's own connection (not part of the store port).
  const raw = (): string | undefined =>
    (service.store as SqliteStore).db
      .prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?')
      .get(SECRET_NAME)?.value;
  return { service, dir, call, raw, sealed, codec };
}

describe('with a keychain', () => {
  it('stores carriers:update client_secret encrypted and gives the core the plain text', async () => {
    const d = await desk(fakeSafeStorage());
    const view = await d.call<CarrierView>('carriers:update', {
      code: 'cdek',
      client_id: 'acme',
      client_secret: 'S3cret-Value-1234',
    });
    expect(view.credentials).toEqual({
      client_id: 'acme',
      client_secret_masked: '••••1234',
      configured: true,
      id_field: 'client_id',
      secret_field: 'client_secret',
    });

    const stored = d.raw()!;
    expect(stored.startsWith(ENCRYPTED_PREFIX)).toBe(true);
    expect(stored).not.toContain('S3cret');
    // What the registry reads when it builds the CDEK adapter:
    expect(d.service.settings.get(SECRET_NAME)).toBe('S3cret-Value-1234');
  });

  it('covers settings:set as well, and keeps "" meaning "not configured"', async () => {
    const d = await desk(fakeSafeStorage());
    await d.call('settings:set', { name: SECRET_NAME, value: 'another-secret-9876' });
    expect(d.raw()!.startsWith(ENCRYPTED_PREFIX)).toBe(true);
    const cleared = await d.call<CarrierView>('carriers:update', { code: 'cdek', client_secret: '' });
    expect(cleared.credentials?.configured).toBe(false);
    expect(d.raw()).toBeUndefined();
  });

  it('accepts a secret of the full 200 characters although its ciphertext is longer', async () => {
    const d = await desk(fakeSafeStorage());
    const long = 'x'.repeat(196) + 'WXYZ';
    const view = await d.call<CarrierView>('carriers:update', { code: 'cdek', client_secret: long });
    expect(view.credentials?.client_secret_masked).toBe('••••WXYZ');
    expect(d.raw()!.length).toBeGreaterThan(200);
    expect(d.service.settings.get(SECRET_NAME)).toBe(long);
  });

  it('seals a plain-text secret left by the admin CLI or an older version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratedesk-creds-'));
    const store = openStore(join(dir, 'ratedesk.db'));
    await store.settings.write([{ name: SECRET_NAME, value: 'legacy-plain-5555' }], new Date().toISOString());
    await store.close();
    const d = await desk(fakeSafeStorage(), dir);
    expect(d.sealed).toBe(1);
    expect(d.raw()!.startsWith(ENCRYPTED_PREFIX)).toBe(true);
    expect(d.service.settings.get(SECRET_NAME)).toBe('legacy-plain-5555');
  });

  it('treats a secret it cannot decrypt (other machine or user) as not configured, and says so in the log', async () => {
    const first = await desk(fakeSafeStorage({ key: 1 }));
    await first.call('carriers:update', {
      code: 'cdek',
      client_id: 'acme',
      client_secret: 'from-machine-one',
    });
    await first.service.close();
    services.splice(services.indexOf(first.service), 1);

    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (m) => warnings.push(m) };
    const second = await desk(fakeSafeStorage({ key: 2 }), first.dir, logger);
    expect(second.service.settings.get(SECRET_NAME)).toBe('');
    const [cdek] = (await second.call<CarrierView[]>('carriers:list', undefined)).filter(
      (c) => c.code === 'cdek',
    );
    expect(cdek?.credentials).toMatchObject({ configured: false, client_secret_masked: '' });
    expect(warnings.join('\n')).toMatch(/cannot be decrypted/);
    expect(warnings.join('\n')).not.toContain('from-machine-one');
  });
});

describe('without real protection', () => {
  it.each([
    ['no keychain at all', { available: false }],
    ["Linux's basic_text fallback (a fixed, public password)", { backend: 'basic_text' }],
  ])('keeps the secret as plain text with %s', async (_label, options) => {
    const safe = fakeSafeStorage(options);
    expect(canEncrypt(safe, 'linux')).toBe(false);
    const d = await desk(safe);
    expect(d.codec.encrypting).toBe(false);
    await d.call('carriers:update', { code: 'cdek', client_secret: 'plain-but-private' });
    expect(d.raw()).toBe('plain-but-private');
  });

  it('still opens nothing it cannot read: an enc: value without a keychain becomes ""', () => {
    const codec = keychainSecrets(fakeSafeStorage({ available: false }), 'linux', silentLogger);
    expect(codec.open(`${ENCRYPTED_PREFIX}AAAA`, SECRET_NAME)).toBe('');
  });

  it('a value sealed with a company server key reads as not configured, never as plain text', () => {
    for (const available of [true, false]) {
      const codec = keychainSecrets(fakeSafeStorage({ available }), 'linux', silentLogger);
      expect(codec.open('srv1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', SECRET_NAME)).toBe('');
    }
  });

  it('uses basic_text as a reason only on Linux', () => {
    expect(canEncrypt(fakeSafeStorage({ backend: 'basic_text' }), 'darwin')).toBe(true);
    expect(canEncrypt(fakeSafeStorage({ backend: 'basic_text' }), 'win32')).toBe(true);
  });
});
