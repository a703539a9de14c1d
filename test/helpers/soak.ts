// The reliability suites (test/reliability/) run a short version in `npm test` (CI) and a long one in
// `npm run soak` (RATEDESK_SOAK=1). Each suite picks its sizes with `scale`, so the two can never drift apart
// in anything but size.
export const SOAK = process.env.RATEDESK_SOAK === '1';

/** `ci` in npm test, `soak` in npm run soak. */
export function scale<T>(ci: T, soak: T): T {
  return SOAK ? soak : ci;
}

/** A seed for fast-check and random schedules: RATEDESK_SEED replays a failure, otherwise a fresh one. */
export function suiteSeed(): number {
  const given = process.env.RATEDESK_SEED;
  return given !== undefined ? Number(given) : (Date.now() ^ (process.pid << 8)) >>> 0;
}
