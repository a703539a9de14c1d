// 5Post JWTs (protocols.md §8.2: about one hour): one cached token per adapter, refreshed a little before it
// expires, and one shared request however many callers need it at once — like CDEK's OAuth token.
import { CarrierHttpError, carrierRequest } from '../http';
import type { SharedTokenSlot } from '../shared-token';
import { sharedToken } from '../shared-token';
import { JWT_FORM_BODY, jwtUrl } from './request';
import { FivePostJwtResponse, fivePostErrorText } from './schema';

/** Lifetime assumed when the token's own `exp` cannot be read (FP-LAP, FP-GUIDE: one hour). */
const DEFAULT_LIFETIME_MS = 60 * 60 * 1000;
/** Refresh this long before expiry (FP-DJ keeps its token about 50 minutes). */
export const JWT_SAFETY_MARGIN_MS = 5 * 60 * 1000;

export type JwtResult = { ok: true; jwt: string } | { ok: false; detail: string };

export class FivePostTokenSource {
  private cached: { jwt: string; refreshAtMs: number } | null = null;
  private refused: string | null = null;
  private flight: Promise<JwtResult> | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly nowMs: () => number,
    /** A company server's shared token (shared-token.ts): one instance asks 5Post for all. */
    private readonly shared?: SharedTokenSlot,
  ) {}

  /** A valid JWT, from cache or from one shared request (bounded by `signal` of whoever started it). */
  async get(signal: AbortSignal): Promise<JwtResult> {
    signal.throwIfAborted();
    if (this.cached && this.nowMs() < this.cached.refreshAtMs) return { ok: true, jwt: this.cached.jwt };
    this.flight ??= this.request(signal).finally(() => {
      this.flight = null;
    });
    return this.flight;
  }

  /** Forget a JWT 5Post refused (401) so the next call asks for a new one. */
  invalidate(jwt: string): void {
    this.refused = jwt;
    if (this.cached?.jwt === jwt) this.cached = null;
  }

  private async request(signal: AbortSignal): Promise<JwtResult> {
    if (!this.shared) return this.askFivePost(signal);
    const refusal: { result: JwtResult | null } = { result: null };
    const held = await sharedToken(this.shared, this.nowMs, this.refused, async () => {
      const result = await this.askFivePost(signal);
      if (result.ok && this.cached) return { token: this.cached.jwt, refreshAtMs: this.cached.refreshAtMs };
      refusal.result = result;
      return null;
    });
    if (!held) return refusal.result ?? { ok: false, detail: '5Post token request failed' };
    this.cached = { jwt: held.token, refreshAtMs: held.refreshAtMs };
    return { ok: true, jwt: held.token };
  }

  private async askFivePost(signal: AbortSignal): Promise<JwtResult> {
    const startedAt = this.nowMs();
    let res;
    try {
      res = await carrierRequest(jwtUrl(this.baseUrl, this.apiKey), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: JWT_FORM_BODY,
        signal,
      });
    } catch (err) {
      if (err instanceof CarrierHttpError)
        return { ok: false, detail: `5Post token request failed: ${err.message}` };
      throw err;
    }
    const parsed = FivePostJwtResponse.safeParse(res.json);
    if (res.status === 200 && parsed.success && (parsed.data.status ?? 'ok').toLowerCase() === 'ok') {
      const lifetime = jwtLifetimeMs(parsed.data.jwt, startedAt) ?? DEFAULT_LIFETIME_MS;
      const margin = Math.min(JWT_SAFETY_MARGIN_MS, lifetime / 2);
      this.cached = { jwt: parsed.data.jwt, refreshAtMs: startedAt + lifetime - margin };
      return { ok: true, jwt: parsed.data.jwt };
    }
    const said = fivePostErrorText(res.json);
    if (res.status === 401 || res.status === 403)
      return {
        ok: false,
        detail: `5Post rejected the API key (${said ?? `HTTP ${res.status}`}); check carriers.5post.apikey`,
      };
    return { ok: false, detail: `5Post token request failed: ${said ?? `HTTP ${res.status}`}` };
  }
}

/** Milliseconds from `fromMs` until the JWT's `exp`, when its payload says; null when it cannot be read. */
export function jwtLifetimeMs(jwt: string, fromMs: number): number | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    if (typeof claims.exp !== 'number') return null;
    const ms = claims.exp * 1000 - fromMs;
    // A week bounds a mistaken exp; 5Post issues one hour.
    return ms > 0 ? Math.min(ms, 7 * 24 * DEFAULT_LIFETIME_MS) : null;
  } catch {
    return null;
  }
}
