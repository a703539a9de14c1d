// `npm run serve` answers company desks (#20) beside /v1, on a data folder and on a company database alike.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';
import { rawRequest } from '../../helpers/service';
import { startServeProcess } from '../../helpers/serve-process';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function checkGateway(port: number): Promise<void> {
  const hello = await rawRequest(port, { path: '/desk/v1/hello' });
  expect(hello.status).toBe(200);
  expect(hello.json).toEqual({ server: 'ratedesk', version: expect.any(String) });
  const unsigned = await rawRequest(port, {
    method: 'POST',
    path: '/desk/v1/ops/accounts:list',
    headers: { 'Content-Type': 'application/json' },
    body: 'null',
  });
  expect(unsigned.status).toBe(401);
}

describe('serve with the desk gateway', () => {
  it('on a data folder', async () => {
    const s = await startServeProcess({}, { args: ['--no-warm-up'] });
    closers.push(() => s.close());
    await checkGateway(s.port);
    expect(
      (await rawRequest(s.port, { path: '/v1/balance', headers: { Authorization: `Bearer ${s.key}` } }))
        .status,
    ).toBe(200);
  });

  it('on a company database', async () => {
    const database = await createTestDatabase('gwserve');
    closers.push(() => dropTestDatabase(database));
    const s = await startServeProcess({}, { args: ['--no-warm-up'] }, { database });
    closers.push(() => s.close());
    await checkGateway(s.port);
  });
});
