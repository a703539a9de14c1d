// A fault inside the service (here: its database gone) must still answer: 500 internal_error with a
// request id, the spec's headers and no secret, and the listener keeps serving the next connection.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawRequest, startTestService, type TestService } from '../../helpers/service';
import type { SqliteStore } from '../../../core/store';
import type { Logger } from '../../../core/util/logger';

const logged: string[] = [];
const logger: Logger = {
  info: (m, f) => logged.push(`${m} ${JSON.stringify(f ?? {})}`),
  warn: (m, f) => logged.push(`${m} ${JSON.stringify(f ?? {})}`),
  error: (m, f) => logged.push(`${m} ${JSON.stringify(f ?? {})}`),
};

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ logger });
  expect((await t.get('/v1/balance')).status).toBe(200);
  // Closing the connection under the running listener makes the very first store call of a request throw.
  (t.service.store as SqliteStore).db.close();
});
afterAll(async () => {
  await t.close();
});

it('answers 500 internal_error with request_id and no-store, and logs it without the key', async () => {
  for (let i = 0; i < 2; i++) {
    const r = await t.get('/v1/balance');
    expect(r.status).toBe(500);
    expect(r.json.error.code).toBe('internal_error');
    expect(r.json.error.request_id).toMatch(/^req_[0-9A-Za-z]{20}$/);
    expect(r.headers['x-request-id']).toBe(r.json.error.request_id);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.text).not.toContain(t.key);
  }
  const errors = logged.filter((l) => l.startsWith('unexpected error in the /v1 listener'));
  expect(errors).toHaveLength(2);
  expect(errors.join('\n')).not.toContain(t.key);
});

it('a request that needs no key gets the same 500, not a hung connection', async () => {
  const r = await rawRequest(t.port, { path: '/v1/openapi.json' });
  expect(r.status).toBe(500);
  expect(r.json.error.code).toBe('internal_error');
});
