// A local DPD calculator2 SOAP endpoint (protocols.md §6) for sandbox mode and tests: POST
// /services/calculator2 with a SOAP 1.1 envelope (text/xml), answered by answerDpdRequest(). 127.0.0.1 only.
import { answerDpdRequest, type DpdAccount } from './dpd-calc';
import { answerParcelShops } from './dpd-points';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import { readBody } from './read-body';

export interface DpdSimulatorOptions {
  latencyMs?: number;
  /** The account it accepts; a made-up one by default (DPD publishes no test account). */
  clientNumber?: string;
  clientKey?: string;
}

export const DPD_SIM_DEFAULT_ACCOUNT: DpdAccount = { clientNumber: '1000000000', clientKey: 'SIMULATORKEY' };

const PATH = '/services/calculator2';
/** geography2: getParcelShops, the pickup-point directory (#21, dpd-points.ts). */
const GEOGRAPHY_PATH = '/services/geography2';

export function startDpdSimulator(options: DpdSimulatorOptions = {}): Promise<SimulatorHandle> {
  const account: DpdAccount = {
    clientNumber: options.clientNumber ?? DPD_SIM_DEFAULT_ACCOUNT.clientNumber,
    clientKey: options.clientKey ?? DPD_SIM_DEFAULT_ACCOUNT.clientKey,
  };
  const TEXT = 'text/plain; charset=utf-8';
  const xml = (
    send: SimulatorExchange['send'],
    status: number,
    body: string,
    type = 'text/xml; charset=utf-8',
  ) => send(status, body, { 'content-type': type });

  async function handle({ req, send }: SimulatorExchange): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const body = await readBody(req);
    if (url.pathname !== PATH && url.pathname !== GEOGRAPHY_PATH) return xml(send, 404, 'Not Found', TEXT);
    if (req.method !== 'POST') return xml(send, 405, 'Method Not Allowed', TEXT);
    // SOAP 1.1 is text/xml; a JAX-WS endpoint refuses anything else before reading the body.
    if (!/^text\/xml\b/i.test(req.headers['content-type'] ?? '')) {
      return xml(send, 415, 'Unsupported Content-Type', TEXT);
    }
    if (body === null) return xml(send, 413, 'Request Entity Too Large', TEXT);
    const answer =
      url.pathname === GEOGRAPHY_PATH ? answerParcelShops(body, account) : answerDpdRequest(body, account);
    if (answer.kind === 'hang') return; // never answered; close() drops the socket
    xml(send, answer.status, answer.body);
  }

  return startSimulatorServer(handle, {
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    basePath: '/services',
    onError: ({ send }) => xml(send, 500, 'Internal Error', TEXT),
  });
}
