// The desktop app starts the core through startRatingService (electron/main/rating-service.ts): the warm-up
// after start (#17 item 3) must run there as in every host, so the desk's first quote is not the slow one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { RatingService } from '../../../../core/service';
import { startRatingService } from '../../../../electron/main/rating-service';

let dir: string | undefined;
let service: RatingService | undefined;
afterEach(async () => {
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  service = undefined;
  dir = undefined;
});

it('the desktop host warms the service up after start, in the background, and logs it', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ratedesk-electron-warm-'));
  const logged: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const started = await startRatingService({
    dataDir: dir,
    listen: false,
    logger: {
      info: (message, fields) => logged.push(fields ? { message, fields } : { message }),
      warn() {},
      error() {},
    },
  });
  service = started.service;
  // Not awaited by the start: the window opens first.
  expect(logged.some((l) => l.message === 'warm-up done')).toBe(false);
  const report = await service.warmedUp;
  expect(report).toMatchObject({ mode: 'sandbox', stopped: null });
  expect(report!.phases.map((p) => p.phase)).toEqual(['code', 'directories', 'quote']);
  expect(logged.find((l) => l.message === 'warm-up done')?.fields).toMatchObject({ mode: 'sandbox' });
});
