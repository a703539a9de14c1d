// The desk's client of its company server (#20): enrolment, one POST per operation with the device token,
// and the event stream. Every connection passes the desk's trust check (trust.ts) before a byte is sent. A
// call fails at once with `offline` while the server is away: the desk never answers from local data
// instead. The token is never logged; it lives in this object and in the desk's secret store.
import type { DeskEvent, DeskResult } from '../contract';
import { Envelope, EnrolResponse, GATEWAY_PATHS, inputToBody, type EnrolResponse as Enrolled } from '../wire';
import { EventStream, reasonOf, type Connection } from './events';
import { companyHttp, readText, type CompanyHttp } from './http';
import { TrustRefusedError, type ServerTrust } from './trust';

export { probeServer } from './probe';
export { normaliseFingerprint, TrustRefusedError, type ServerTrust } from './trust';
export type { Connection } from './events';

/** A quote from every warehouse may take a while; a call that takes longer than this is given up. */
export const CALL_TIMEOUT_MS = 180_000;

export const OFFLINE_MESSAGE = 'The company server cannot be reached. The desk retries by itself.';

export interface RemoteDeskOptions {
  url: string;
  trust: ServerTrust;
  token: string;
  onEvent(event: DeskEvent, payload: unknown): void;
  onConnection(connection: Connection, reason: string | null): void;
  /** Tests: a shorter back-off. */
  retry?: { firstMs: number; maxMs: number };
}

export class RemoteDesk {
  private readonly http: CompanyHttp;
  private readonly stream: EventStream;
  private state: { connection: Connection; reason: string | null } = {
    connection: 'connecting',
    reason: null,
  };

  constructor(private readonly o: RemoteDeskOptions) {
    this.http = companyHttp(o.url, o.trust);
    this.stream = new EventStream({
      http: this.http,
      token: o.token,
      onEvent: o.onEvent,
      onConnection: (connection, reason) => this.set(connection, reason),
      ...(o.retry ? { retry: o.retry } : {}),
    });
  }

  get connection(): Connection {
    return this.state.connection;
  }

  get reason(): string | null {
    return this.state.reason;
  }

  async dispatch(channel: string, raw: unknown): Promise<DeskResult<unknown>> {
    if (this.state.connection === 'refused') {
      return fail('unauthorized', 'This desk is no longer signed in to the company server: join it again.');
    }
    if (this.state.connection === 'offline') return fail('offline', OFFLINE_MESSAGE);
    let status: number;
    let text: string;
    try {
      const res = await this.http.send({
        method: 'POST',
        path: GATEWAY_PATHS.ops + channel,
        headers: { Authorization: `Bearer ${this.o.token}` },
        body: inputToBody(raw),
        timeoutMs: CALL_TIMEOUT_MS,
      });
      status = res.statusCode ?? 0;
      text = await readText(res);
    } catch (error) {
      if (error instanceof TrustRefusedError) {
        this.set('refused', error.message);
        return fail('offline', `The company server's certificate is not the trusted one: ${error.message}`);
      }
      this.set('offline', reasonOf(error));
      // The stream may still look open (a half-dead connection): it reconnects, and says online once it can.
      this.stream.reconnect();
      return fail('offline', OFFLINE_MESSAGE);
    }
    if (status === 401) {
      this.set('refused', 'the company server no longer accepts this desk (401)');
      return fail('unauthorized', 'This desk is no longer signed in to the company server: join it again.');
    }
    const parsed = parseEnvelope(text);
    if (parsed) return parsed;
    return fail('internal', `The company server answered ${status} without a desk answer.`);
  }

  async close(): Promise<void> {
    await this.stream.close();
    this.http.close();
  }

  private set(connection: Connection, reason: string | null): void {
    if (this.state.connection === connection && this.state.reason === reason) return;
    // Refused is final for this object: only leave and join again changes it.
    if (this.state.connection === 'refused') return;
    this.state = { connection, reason };
    this.o.onConnection(connection, reason);
  }
}

export type EnrolResult =
  { ok: true; value: Enrolled } | { ok: false; code: 'forbidden' | 'offline' | 'invalid'; message: string };

/** POST /desk/v1/enrol over a trusted connection: the code for this desk's token. */
export async function enrolDesk(
  url: string,
  trust: ServerTrust,
  code: string,
  deviceName: string,
): Promise<EnrolResult> {
  const http = companyHttp(url, trust);
  try {
    const res = await http.send({
      method: 'POST',
      path: GATEWAY_PATHS.enrol,
      body: JSON.stringify({ code, device_name: deviceName }),
      timeoutMs: 30_000,
    });
    const text = await readText(res, 1024 * 1024);
    if (res.statusCode === 200) {
      const value = EnrolResponse.safeParse(safeJson(text));
      if (value.success) return { ok: true, value: value.data };
      return {
        ok: false,
        code: 'invalid',
        message: 'This server did not answer as a RateDesk company server.',
      };
    }
    const envelope = parseEnvelope(text);
    const message =
      envelope && !envelope.ok ? envelope.error.message : `The server answered ${res.statusCode ?? 0}.`;
    return { ok: false, code: res.statusCode === 404 ? 'invalid' : 'forbidden', message };
  } catch (error) {
    if (error instanceof TrustRefusedError) {
      return {
        ok: false,
        code: 'forbidden',
        message: `The server's certificate is not the trusted one: ${error.message}`,
      };
    }
    return {
      ok: false,
      code: 'offline',
      message: `The company server cannot be reached (${reasonOf(error)}).`,
    };
  } finally {
    http.close();
  }
}

function parseEnvelope(text: string): DeskResult<unknown> | undefined {
  const r = Envelope.safeParse(safeJson(text));
  return r.success ? (r.data as DeskResult<unknown>) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function fail(code: 'offline' | 'unauthorized' | 'internal', message: string): DeskResult<never> {
  return { ok: false, error: { code, message } };
}
