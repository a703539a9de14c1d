// A local DPD calculator2 SOAP endpoint (protocols.md §6) for sandbox mode and tests: POST
// /services/calculator2 with a SOAP 1.1 envelope (text/xml), answered by answerDpdRequest(). 127.0.0.1 only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerDpdRequest, type DpdAccount } from './dpd-calc';
import { answerAfter, type SimulatorHandle } from './handle';
import { readBody } from './read-body';

export interface DpdSimulatorOptions {
  latencyMs?: number;
  /** The account it accepts; a made-up one by default (DPD publishes no test account). */
  clientNumber?: string;
  clientKey?: string;
}

export const DPD_SIM_DEFAULT_ACCOUNT: DpdAccount = { clientNumber: '1000000000', clientKey: 'SIMULATORKEY' };

const PATH = '/services/calculator2';

export async function startDpdSimulator(options: DpdSimulatorOptions = {}): Promise<SimulatorHandle> {
  const account: DpdAccount = {
    clientNumber: options.clientNumber ?? DPD_SIM_DEFAULT_ACCOUNT.clientNumber,
    clientKey: options.clientKey ?? DPD_SIM_DEFAULT_ACCOUNT.clientKey,
  };
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;

  function send(
    res: ServerResponse,
    arrivedAt: number,
    status: number,
    body: string,
    type = 'text/xml; charset=utf-8',
  ): void {
    answerAfter(latencyMs, arrivedAt, timers, () => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, arrivedAt: number): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const body = await readBody(req);
    if (url.pathname !== PATH) return send(res, arrivedAt, 404, 'Not Found', 'text/plain; charset=utf-8');
    if (req.method !== 'POST')
      return send(res, arrivedAt, 405, 'Method Not Allowed', 'text/plain; charset=utf-8');
    // SOAP 1.1 is text/xml; a JAX-WS endpoint refuses anything else before reading the body.
    if (!/^text\/xml\b/i.test(req.headers['content-type'] ?? '')) {
      return send(res, arrivedAt, 415, 'Unsupported Content-Type', 'text/plain; charset=utf-8');
    }
    if (body === null)
      return send(res, arrivedAt, 413, 'Request Entity Too Large', 'text/plain; charset=utf-8');
    const answer = answerDpdRequest(body, account);
    if (answer.kind === 'hang') return; // never answered; close() drops the socket
    send(res, arrivedAt, answer.status, answer.body);
  }

  const server = createServer((req, res) => {
    const arrivedAt = performance.now();
    requests += 1;
    handle(req, res, arrivedAt).catch(() =>
      send(res, arrivedAt, 500, 'Internal Error', 'text/plain; charset=utf-8'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/services`,
    requestCount: () => requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
