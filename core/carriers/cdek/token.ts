// CDEK OAuth2 client-credentials tokens (protocols.md §2.3): one cached access token per adapter, refreshed
// a little before it expires, and one shared token request however many quotes arrive at once — a burst of
// quotes on a cold cache must not become a burst of logins.
import { CarrierHttpError, carrierRequest } from '../http';
import type { CarrierFailure } from '../types';
import { sharedToken, type SharedTokenSlot } from '../shared-token';
import { CdekOAuthError, CdekTokenResponse } from './schema';

/** Refresh this long before expiry, so a token never runs out between our check and CDEK's. */
export const TOKEN_SAFETY_MARGIN_SECONDS = 60;
/** CDEK tokens live ≈3600 s; assumed when an answer omits expires_in. */
const DEFAULT_EXPIRES_IN_SECONDS = 3600;

export type TokenResult =
  { ok: true; token: string } | { ok: false; failure: CarrierFailure & { kind: 'carrier_error' } };

export interface TokenSourceOptions {
  /** API base without trailing slash, e.g. https://api.cdek.ru/v2. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  nowMs: () => number;
  /** A company server's shared token (shared-token.ts): one instance logs in for all. */
  shared?: SharedTokenSlot;
}

interface Flight {
  promise: Promise<TokenResult>;
  controller: AbortController;
  waiters: number;
}

export class CdekTokenSource {
  private cached: { token: string; refreshAtMs: number } | null = null;
  /** The last token CDEK refused: a shared copy of it must not be taken again. */
  private refused: string | null = null;
  private lifetime: number | null = null;
  private flight: Flight | null = null;

  constructor(private readonly options: TokenSourceOptions) {}

  /**
   * A valid token, from cache or from one shared request. The caller's abort rejects only that caller;
   * the shared request is cancelled when every caller waiting on it has gone.
   */
  async get(signal: AbortSignal): Promise<TokenResult> {
    signal.throwIfAborted();
    const cached = this.cached;
    if (cached && this.options.nowMs() < cached.refreshAtMs) return { ok: true, token: cached.token };
    const flight = this.flight ?? this.startFlight();
    flight.waiters += 1;
    return waitUnlessAborted(flight.promise, signal, () => {
      flight.waiters -= 1;
      if (flight.waiters > 0) return;
      // Detach first: a caller arriving after this must start a fresh request, not join a cancelled one.
      if (this.flight === flight) this.flight = null;
      flight.controller.abort(signal.reason);
    });
  }

  /** The lifetime CDEK gave the last token it issued (expires_in, seconds), as it said it; null before one. */
  lastLifetimeSeconds(): number | null {
    return this.lifetime;
  }

  /** Forget `token` after CDEK refused it (401); a newer token obtained meanwhile is kept. */
  invalidate(token: string): void {
    this.refused = token;
    if (this.cached?.token === token) this.cached = null;
  }

  private startFlight(): Flight {
    const controller = new AbortController();
    const flight: Flight = { promise: this.requestToken(controller.signal), controller, waiters: 0 };
    this.flight = flight;
    const clear = (): void => {
      if (this.flight === flight) this.flight = null;
    };
    // The catch also keeps a request abandoned by every waiter from becoming an unhandled rejection.
    flight.promise.then(clear, clear);
    return flight;
  }

  private async requestToken(signal: AbortSignal): Promise<TokenResult> {
    const { shared, nowMs } = this.options;
    if (!shared) return this.askCdek(signal);
    const refusal: { result: TokenResult | null } = { result: null };
    const held = await sharedToken(shared, nowMs, this.refused, async () => {
      const result = await this.askCdek(signal);
      if (result.ok) return this.cached;
      refusal.result = result;
      return null;
    });
    if (!held) return refusal.result ?? failure('CDEK token request failed');
    this.cached = held;
    return { ok: true, token: held.token };
  }

  private async askCdek(signal: AbortSignal): Promise<TokenResult> {
    const { baseUrl, clientId, clientSecret, nowMs } = this.options;
    // Lifetime counts from before the request: conservative by the request's duration.
    const startedAt = nowMs();
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }).toString();
    let res;
    try {
      res = await carrierRequest(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal,
      });
    } catch (err) {
      if (err instanceof CarrierHttpError) return failure(`CDEK token request failed: ${err.message}`);
      throw err;
    }

    if (res.status >= 200 && res.status < 300) {
      const parsed = CdekTokenResponse.safeParse(res.json);
      if (!parsed.success) return failure('CDEK token response could not be read');
      const expiresIn = parsed.data.expires_in ?? DEFAULT_EXPIRES_IN_SECONDS;
      this.lifetime = parsed.data.expires_in ?? null;
      // Short-lived tokens (sandboxes) still get reused: the margin never eats more than half the lifetime.
      const margin = Math.min(TOKEN_SAFETY_MARGIN_SECONDS, expiresIn / 2);
      this.cached = { token: parsed.data.access_token, refreshAtMs: startedAt + (expiresIn - margin) * 1000 };
      return { ok: true, token: parsed.data.access_token };
    }

    const oauth = CdekOAuthError.safeParse(res.json);
    const reason = oauth.success
      ? oauth.data.error_description
        ? `${oauth.data.error}: ${oauth.data.error_description}`
        : oauth.data.error
      : `HTTP ${res.status}`;
    if (res.status === 401 || (oauth.success && oauth.data.error === 'invalid_client')) {
      return failure(`CDEK rejected the credentials (${reason}); check the client id and secret`);
    }
    return failure(`CDEK token request failed: ${reason}${oauth.success ? ` (HTTP ${res.status})` : ''}`);
  }
}

function failure(detail: string): TokenResult {
  return { ok: false, failure: { kind: 'carrier_error', detail } };
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts (calling onAbandon). */
function waitUnlessAborted<T>(promise: Promise<T>, signal: AbortSignal, onAbandon: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const onAbort = (): void => {
      if (done) return;
      done = true;
      onAbandon();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (done) return;
        done = true;
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (done) return;
        done = true;
        reject(err);
      },
    );
  });
}
