// HTTP to the company server over connections that passed the desk's trust check first (trust.ts). node:http
// with an Agent whose createConnection hands over a socket only once its certificate matched: the request is
// written to that socket and to no other, so the check provably comes before any byte of it. (undici's
// connector would do the same; node:http keeps the SSE stream and the calls on one well-known client, in
// Electron's main process as in plain Node, with no dependency beyond Node.)
import { Agent, request, type ClientRequestArgs, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { connectTrusted, endpointOf, type Endpoint, type ServerTrust } from './trust';

class TrustedAgent extends Agent {
  constructor(
    private readonly endpoint: Endpoint,
    private readonly trust: ServerTrust,
  ) {
    // An idle kept-alive socket is closed before the server's own 5 s keep-alive timeout ends it, so a
    // call does not meet a socket the server is closing (send() also retries once if it does).
    super({ keepAlive: true, maxSockets: 16, timeout: 4_000 });
  }

  override createConnection(
    _options: ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    connectTrusted(this.endpoint, this.trust).then(
      (socket) => callback?.(null, socket),
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

export interface CompanyHttp {
  /** Sends one request; resolves with the response (its body not yet read). */
  send(options: SendOptions): Promise<IncomingMessage>;
  close(): void;
}

export interface SendOptions {
  method: 'GET' | 'POST';
  /** A gateway path (`/desk/v1/…`), joined to the company URL's own path. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange, headers included; the request is destroyed after it. */
  timeoutMs: number;
}

export function companyHttp(url: string, trust: ServerTrust): CompanyHttp {
  const parsed = new URL(url);
  const endpoint = endpointOf(parsed);
  const agent = new TrustedAgent(endpoint, trust);
  const base = parsed.pathname.replace(/\/+$/, '');
  return {
    async send(o) {
      try {
        return await sendOnce(o);
      } catch (error) {
        // A kept-alive socket the server closed while idle fails before the request reached it (Node's
        // documented case for `reusedSocket`): sent again on a new connection; nothing ran twice.
        if ((error as { reusedSocket?: boolean }).reusedSocket) return sendOnce(o);
        throw error;
      }
    },
    close: () => agent.destroy(),
  };

  function sendOnce(o: SendOptions): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: endpoint.host,
          port: endpoint.port,
          method: o.method,
          path: base + o.path,
          // The name the desk was given (no default port), which the server's public-host list accepts.
          headers: {
            Host: parsed.host,
            ...(o.body !== undefined
              ? {
                  'Content-Type': 'application/json',
                  'Content-Length': String(Buffer.byteLength(o.body)),
                }
              : {}),
            ...o.headers,
          },
          setHost: false,
        },
        resolve,
      );
      req.setTimeout(o.timeoutMs, () => req.destroy(new Error('the company server did not answer in time')));
      req.once('error', (error: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        reject(stale ? Object.assign(error, { reusedSocket: true }) : error);
      });
      req.end(o.body);
    });
  }
}

/** The body as text (bounded: the desk never needs more than this from one answer). */
export function readText(res: IncomingMessage, limit = 256 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) res.destroy(new Error('answer too large'));
      else chunks.push(c);
    });
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
    res.once('aborted', () => reject(new Error('the connection was closed')));
  });
}
