// Carrier settings through the one operation layer (#10 item 1): switch, endpoint, host, own timeout and the
// account, as the desk and the admin CLI both run them.
import { describe, expect, it } from 'vitest';
import { carrierOperations } from '../../../../core/operations/carriers';
import { OperationError, runStore } from '../../../../core/operations';
import { freshFolder } from '../../../helpers/store-fixtures';

const update = (ctx: ReturnType<typeof freshFolder>, input: Record<string, unknown>) =>
  runStore(ctx, 'carriers:update', input);
const list = (ctx: ReturnType<typeof freshFolder>) => runStore(ctx, 'carriers:list', undefined);

async function operationError(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

describe('carriers:list', () => {
  it('lists every built-in carrier (eight since #11) with its production host, default timeout and no account', async () => {
    const ctx = freshFolder();
    expect((await list(ctx)).map((c) => [c.code, c.enabled, c.endpoint, c.base_url, c.timeout_ms])).toEqual([
      ['cdek', true, 'production', 'https://api.cdek.ru/v2', 0],
      ['russian-post', true, 'production', 'https://tariff.pochta.ru', 0],
      ['boxberry', true, 'production', 'https://api.boxberry.ru/json.php', 0],
      ['dpd', true, 'production', 'https://ws.dpd.ru/services', 0],
      ['dellin', true, 'production', 'https://api.dellin.ru', 0],
      ['pek', true, 'production', 'https://kabinet.pecom.ru/api/v1', 0],
      ['yandex', true, 'production', 'https://b2b-authproxy.taxi.yandex.net', 0],
      ['5post', true, 'production', 'https://api-omni.x5.ru', 0],
    ]);
    const [cdek, post] = await list(ctx);
    // Both UI languages' names, from the descriptors (issue #17: the English UI says «CDEK»).
    expect((await list(ctx)).map((c) => [c.name, c.name_en])).toEqual([
      ['СДЭК', 'CDEK'],
      ['Почта России', 'Russian Post'],
      ['Boxberry', 'Boxberry'],
      ['DPD', 'DPD'],
      ['Деловые Линии', 'Dellin'],
      ['ПЭК', 'PEK'],
      ['Яндекс Доставка', 'Yandex Delivery'],
      ['5Post', '5Post'],
    ]);
    // An account that is an API key alone has no id field (#11: Yandex's token, Dellin's appkey …).
    const yandex = (await list(ctx)).find((c) => c.code === 'yandex');
    expect(yandex!.credentials).toEqual({
      client_id: null,
      client_secret_masked: '',
      configured: false,
      id_field: null,
      secret_field: 'token',
    });
    expect((await list(ctx)).find((c) => c.code === 'dpd')!.credentials!.client_id).toBe('');
    expect(cdek!.hosts).toEqual({ production: 'https://api.cdek.ru/v2', test: 'https://api.edu.cdek.ru/v2' });
    expect(cdek!.credentials).toEqual({
      client_id: '',
      client_secret_masked: '',
      configured: false,
      id_field: 'client_id',
      secret_field: 'client_secret',
    });
    expect(post!.credentials).toBeNull();
    expect(cdek!.default_timeout_ms).toBe(5000);
  });
});

describe('carriers:update', () => {
  it('switches the endpoint: test uses the test host, production goes back to the production host', async () => {
    const ctx = freshFolder();
    expect(await update(ctx, { code: 'cdek', endpoint: 'test' })).toMatchObject({
      endpoint: 'test',
      base_url: 'https://api.edu.cdek.ru/v2',
    });
    expect(await update(ctx, { code: 'cdek', base_url: 'https://proxy.example/v2' })).toMatchObject({
      endpoint: 'custom',
      base_url: 'https://proxy.example/v2',
    });
    expect(await update(ctx, { code: 'cdek', endpoint: 'production' })).toMatchObject({
      endpoint: 'production',
      base_url: 'https://api.cdek.ru/v2',
    });
    expect((await update(ctx, { code: 'cdek', endpoint: 'simulator' })).endpoint).toBe('simulator');
  });

  it('an emptied host means the production host again', async () => {
    const ctx = freshFolder();
    await update(ctx, { code: 'russian-post', base_url: 'https://proxy.example' });
    expect(await update(ctx, { code: 'russian-post', base_url: '' })).toMatchObject({
      endpoint: 'production',
      base_url: 'https://tariff.pochta.ru',
    });
  });

  it('keeps a timeout of its own, 0 meaning the general one', async () => {
    const ctx = freshFolder();
    expect((await update(ctx, { code: 'cdek', timeout_ms: 2500 })).timeout_ms).toBe(2500);
    expect(await ctx.store.settings.get('carriers.cdek.timeout_ms')).toBe('2500');
    expect((await update(ctx, { code: 'cdek', timeout_ms: 0 })).timeout_ms).toBe(0);
  });

  it('stores the account, shows the secret masked only', async () => {
    const ctx = freshFolder();
    const view = await update(ctx, { code: 'cdek', client_id: ' acme ', client_secret: 'S3cret-Value-1234' });
    expect(view.credentials).toEqual({
      client_id: 'acme',
      client_secret_masked: '••••1234',
      configured: true,
      id_field: 'client_id',
      secret_field: 'client_secret',
    });
    expect(JSON.stringify(view)).not.toContain('S3cret');
  });

  it('refuses what cannot be: no test host, no account, unknown carrier, bad values — changing nothing', async () => {
    const ctx = freshFolder();
    expect((await operationError(() => update(ctx, { code: 'russian-post', endpoint: 'test' }))).code).toBe(
      'invalid',
    );
    expect((await operationError(() => update(ctx, { code: 'russian-post', client_id: 'x' }))).code).toBe(
      'invalid',
    );
    expect((await operationError(() => update(ctx, { code: 'dhl', enabled: false }))).code).toBe('not_found');
    expect((await operationError(() => update(ctx, { code: 'cdek', timeout_ms: 60_001 }))).code).toBe(
      'invalid',
    );
    expect((await operationError(() => update(ctx, { code: 'cdek', endpoint: 'staging' }))).code).toBe(
      'invalid',
    );
    // All or nothing: the switch is not flipped by a request whose host is bad.
    expect(
      (await operationError(() => update(ctx, { code: 'cdek', enabled: false, base_url: 'ftp://x' }))).code,
    ).toBe('invalid');
    expect((await list(ctx))[0]!.enabled).toBe(true);
  });

  it('are store operations: the admin CLI runs them without a service', async () => {
    expect(carrierOperations['carriers:list'].needs).toBe('store');
    expect(carrierOperations['carriers:update'].needs).toBe('store');
  });
});

describe('an account that is a key alone (#11)', () => {
  it('stores the token masked, refuses an id, and counts as configured with the token only', async () => {
    const ctx = freshFolder();
    const view = await update(ctx, { code: 'yandex', client_secret: 'y0-token-ABCD' });
    expect(view.credentials).toEqual({
      client_id: null,
      client_secret_masked: '••••ABCD',
      configured: true,
      id_field: null,
      secret_field: 'token',
    });
    const refused = await operationError(() => update(ctx, { code: 'yandex', client_id: 'someone' }));
    expect(refused.code).toBe('invalid');
    expect(refused.message).toMatch(/only a secret/);
  });
});
