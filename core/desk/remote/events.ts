// The desk's side of GET /desk/v1/events: one stream, parsed frame by frame, reconnected with a back-off
// capped at RETRY.maxMs while the server is away. Its state is the desk's connection state: `online` while a
// stream is open, `offline` while it is not (retrying), `refused` after a 401 or a certificate that is not
// the trusted one (retrying cannot help: only leave and join again does).
import type { IncomingMessage } from 'node:http';
import { isDeskEvent, type DeskEvent } from '../contract';
import { GATEWAY_PATHS, SSE_KEEPALIVE_MS } from '../wire';
import type { CompanyHttp } from './http';
import { TrustRefusedError } from './trust';

export type Connection = 'connecting' | 'online' | 'offline' | 'refused';

export const RETRY = { firstMs: 250, maxMs: 5_000 };
/** No byte (event or keep-alive) for this long: the connection is dead even if TCP has not noticed. */
const SILENCE_MS = 2 * SSE_KEEPALIVE_MS + 5_000;

export interface EventStreamOptions {
  http: CompanyHttp;
  token: string;
  onEvent(event: DeskEvent, payload: unknown): void;
  onConnection(connection: Connection, reason: string | null): void;
  retry?: { firstMs: number; maxMs: number };
}

type Ended = { refused: boolean; reason: string };

export class EventStream {
  private closed = false;
  private current: IncomingMessage | null = null;
  private wake: (() => void) | null = null;
  private readonly done: Promise<void>;

  constructor(private readonly o: EventStreamOptions) {
    this.done = this.loop();
  }

  /** Drops the stream now and reconnects (a call found the server gone while the stream looked open). */
  reconnect(): void {
    this.current?.destroy();
    this.wake?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current?.destroy();
    this.wake?.();
    await this.done;
  }

  private async loop(): Promise<void> {
    const retry = this.o.retry ?? RETRY;
    let delay = retry.firstMs;
    while (!this.closed) {
      const ended = await this.listen(() => {
        delay = retry.firstMs;
        this.o.onConnection('online', null);
      });
      if (this.closed) return;
      if (ended.refused) {
        this.o.onConnection('refused', ended.reason);
        return;
      }
      this.o.onConnection('offline', ended.reason);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
      delay = Math.min(retry.maxMs, delay * 2);
    }
  }

  /** One stream, from request to its end. */
  private async listen(opened: () => void): Promise<Ended> {
    let res: IncomingMessage;
    try {
      res = await this.o.http.send({
        method: 'GET',
        path: GATEWAY_PATHS.events,
        headers: { Authorization: `Bearer ${this.o.token}`, Accept: 'text/event-stream' },
        timeoutMs: SILENCE_MS,
      });
    } catch (error) {
      const refused = error instanceof TrustRefusedError;
      return { refused, reason: reasonOf(error) };
    }
    if (res.statusCode === 401) {
      res.resume();
      return { refused: true, reason: 'the company server no longer accepts this desk (401)' };
    }
    if (res.statusCode !== 200) {
      res.resume();
      return { refused: false, reason: `the company server answered ${res.statusCode ?? 0}` };
    }
    this.current = res;
    opened();
    return new Promise<Ended>((resolve) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          this.frame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      });
      const finish = (reason: string): void => {
        this.current = null;
        resolve({ refused: false, reason });
      };
      res.once('end', () => finish('the company server closed the event stream'));
      res.once('error', (error) => finish(reasonOf(error)));
      res.once('close', () => finish('the connection to the company server was lost'));
    });
  }

  private frame(block: string): void {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (event === undefined || data.length === 0 || !isDeskEvent(event)) return;
    try {
      this.o.onEvent(event, JSON.parse(data.join('\n')) as unknown);
    } catch {
      // A frame that is not JSON is not ours: skipped.
    }
  }
}

export function reasonOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? error);
}
