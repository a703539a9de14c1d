// The desk gateway (#20): company desks' calls on the `serve` listener, beside /v1 and never inside it
// (docs/api.md "Desk gateway (extension beside /v1)"). Every call runs through the same dispatchDesk as
// IPC, with a ServiceContext of its own naming the user (actor) and routing the call's own events to its
// device's streams, so the server validates input exactly as the desk's IPC does and refuses by role.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType, MAX_BODY_BYTES, readBody, decodeUtf8 } from '../../api/body';
import type { HeaderList } from '../../api/respond';
import { sendJson } from '../../api/respond';
import type { ApiExtension, ExtensionRequest } from '../../api/runtime';
import { roleAllows, type DeskEventName, type OperationName } from '../../contract/operations';
import { OPERATIONS, type ServiceContext } from '../../operations';
import type { OperationTable } from '../../operations/define';
import { StoreBusyError } from '../../store/port';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import { BUSY_MESSAGE, dispatchDesk } from '../dispatch';
import { isDeskChannel, type DeskError } from '../contract';
import { bodyToInput, EnrolRequest, GATEWAY_PATHS, GATEWAY_PREFIX } from '../wire';
import { ENROL_BRAKE, FailureBrake } from './brake';
import { authenticateDevice, DeviceTouch } from './device-auth';
import { ENROL_REFUSALS, enrolDevice } from './enrol';
import { EventStreams } from './streams';

/** Events every desk hears; a quote's progress goes only to the device that asked (its call's ctx.emit). */
const BROADCAST: ReadonlySet<DeskEventName> = new Set(['balance:changed', 'balance:low', 'carriers:status']);

/**
 * Inputs that may be large (a rate card file, a key export): read up to this for a user whose role may run
 * them; every other call is bounded by the /v1 body limit. Above each schema's own maximum.
 */
const LARGE_INPUT: ReadonlySet<OperationName> = new Set([
  'ratecards:import',
  'ratecards:check',
  'keys:import',
  'bulk:parse',
  'bulk:run',
  'bulk:export',
]);
const LARGE_BODY_BYTES = 80 * 1024 * 1024;

export interface DeskGatewayOptions {
  /** The service's desk context (store, clock, service parts, app); each call gets a copy naming its user. */
  context: ServiceContext;
  /** The service's desk events (service.desk.subscribe). */
  subscribe(listener: (event: DeskEventName, payload: unknown) => void): () => void;
  clock: Clock;
  logger: Logger;
  /** What GET /desk/v1/hello reports. */
  version: string;
  /** Tests only: a table with failing operations. */
  table?: OperationTable;
  /** Tests only: the keep-alive period of event streams. */
  keepAliveMs?: number;
}

export interface DeskGateway {
  extension: ApiExtension;
  /** Open event streams (tests, the log). */
  streams(): number;
  /** Ends every event stream (before the listener closes, which would otherwise wait for them). */
  close(): void;
}

export function createDeskGateway(options: DeskGatewayOptions): DeskGateway {
  const { context, clock, logger } = options;
  const { store } = context;
  const table = options.table ?? OPERATIONS;
  const streams = new EventStreams(
    async (digest) => (await store.users.deviceAuth(digest)) !== undefined,
    logger,
    options.keepAliveMs,
  );
  const unsubscribe = options.subscribe((event, payload) => {
    if (BROADCAST.has(event)) streams.broadcast(event, payload);
  });
  const touch = new DeviceTouch(
    store,
    logger,
    () => clock.monotonicMs(),
    () => clock.now().toISOString(),
  );
  const brake = new FailureBrake(ENROL_BRAKE, () => clock.monotonicMs());

  async function ops(
    req: IncomingMessage,
    res: ServerResponse,
    headers: HeaderList,
    path: string,
  ): Promise<void> {
    const auth = await authenticateDevice(store, req);
    if (!auth) return unauthorized(res, headers);
    const { device } = auth;
    touch.touch(device.device_id);
    const channel = channelOf(path);
    if (channel === undefined || !isDeskChannel(channel)) {
      return envelope(res, 404, headers, { code: 'forbidden', message: 'Unknown desk channel.' });
    }
    const input = await readJson(
      req,
      res,
      headers,
      LARGE_INPUT.has(channel) && roleAllows(device.role, channel),
    );
    if (input === NO_BODY) return;
    const ctx: ServiceContext = {
      ...context,
      actor: { kind: 'user', name: device.user_name, role: device.role, deviceId: device.device_id },
      emit: (event, payload) => streams.toDevice(device.device_id, event, payload),
    };
    const result = await dispatchDesk(ctx, channel, bodyToInput(input), logger, table);
    sendJson(res, 200, JSON.stringify(result), headers);
  }

  async function enrol(req: IncomingMessage, res: ServerResponse, headers: HeaderList): Promise<void> {
    const address = req.socket.remoteAddress ?? '';
    const wait = brake.retryAfterSeconds(address);
    if (wait > 0) {
      headers.push('Retry-After', String(wait));
      return envelope(res, 429, headers, {
        code: 'forbidden',
        message: 'Too many wrong enrolment codes from this address: wait a minute and try again.',
      });
    }
    const raw = await readJson(req, res, headers, false);
    if (raw === NO_BODY) return;
    const parsed = EnrolRequest.safeParse(raw);
    if (!parsed.success) {
      return envelope(res, 400, headers, { code: 'invalid', message: 'Send {code, device_name}.' });
    }
    const outcome = await enrolDevice(store, context.clock, logger, parsed.data);
    if (!outcome.ok) {
      if (outcome.reason !== 'disabled') brake.fail(address);
      return envelope(res, 403, headers, { code: 'forbidden', message: ENROL_REFUSALS[outcome.reason] });
    }
    sendJson(res, 200, JSON.stringify(outcome.value), headers);
  }

  async function events(req: IncomingMessage, res: ServerResponse, headers: HeaderList): Promise<void> {
    const auth = await authenticateDevice(store, req);
    if (!auth) return unauthorized(res, headers);
    touch.touch(auth.device.device_id);
    streams.open(res, headers, auth.device, auth.tokenDigest);
  }

  /** The body as JSON; NO_BODY when an answer was already sent (or the client went away). */
  async function readJson(
    req: IncomingMessage,
    res: ServerResponse,
    headers: HeaderList,
    large: boolean,
  ): Promise<unknown> {
    if (!isJsonContentType(req)) {
      envelope(res, 415, headers, { code: 'invalid', message: 'Send the input as application/json.' });
      return NO_BODY;
    }
    const body = await readBody(req, res, large ? LARGE_BODY_BYTES : MAX_BODY_BYTES);
    if (!body.ok) {
      if (body.reason === 'too_large') {
        envelope(res, 413, headers, { code: 'invalid', message: 'The input is too large.' });
      }
      return NO_BODY;
    }
    const text = decodeUtf8(body.body);
    try {
      if (text === undefined) throw new Error('not UTF-8');
      return JSON.parse(text) as unknown;
    } catch {
      envelope(res, 400, headers, { code: 'invalid', message: 'The input is not valid JSON.' });
      return NO_BODY;
    }
  }

  const extension: ApiExtension = {
    prefix: GATEWAY_PREFIX,
    async handle(req, res, { headers, path, query }: ExtensionRequest): Promise<void> {
      try {
        // A token or code never belongs in a URL (proxies log them): nothing here reads a query.
        if (query !== null) {
          return envelope(res, 400, headers, {
            code: 'invalid',
            message: 'The desk gateway takes no query.',
          });
        }
        const route = routeOf(path);
        if (!route) return envelope(res, 404, headers, { code: 'not_found', message: 'No such desk route.' });
        if (req.method !== route.method) {
          headers.push('Allow', route.method);
          return envelope(res, 405, headers, { code: 'invalid', message: `Use ${route.method}.` });
        }
        switch (route.name) {
          case 'hello':
            return sendJson(
              res,
              200,
              JSON.stringify({ server: 'ratedesk', version: options.version }),
              headers,
            );
          case 'enrol':
            return await enrol(req, res, headers);
          case 'events':
            return await events(req, res, headers);
          case 'ops':
            return await ops(req, res, headers, path);
        }
      } catch (err) {
        if (err instanceof StoreBusyError) {
          headers.push('Retry-After', '1');
          return envelope(res, 503, headers, { code: 'busy', message: BUSY_MESSAGE });
        }
        logger.error('desk gateway request failed', {
          path,
          error: err instanceof Error ? err.message : String(err),
        });
        return envelope(res, 500, headers, { code: 'internal', message: 'Unexpected error' });
      }
    },
  };

  return {
    extension,
    streams: () => streams.size,
    close() {
      unsubscribe();
      streams.close();
    },
  };
}

const NO_BODY = Symbol('no body');

type GatewayRoute = { name: 'hello' | 'enrol' | 'events' | 'ops'; method: 'GET' | 'POST' };

function routeOf(path: string): GatewayRoute | undefined {
  if (path === GATEWAY_PATHS.hello) return { name: 'hello', method: 'GET' };
  if (path === GATEWAY_PATHS.enrol) return { name: 'enrol', method: 'POST' };
  if (path === GATEWAY_PATHS.events) return { name: 'events', method: 'GET' };
  if (path.startsWith(GATEWAY_PATHS.ops)) return { name: 'ops', method: 'POST' };
  return undefined;
}

/** `/desk/v1/ops/quote:run` (or `quote%3Arun`) → `quote:run`. */
function channelOf(path: string): string | undefined {
  try {
    return decodeURIComponent(path.slice(GATEWAY_PATHS.ops.length));
  } catch {
    return undefined;
  }
}

function envelope(res: ServerResponse, status: number, headers: HeaderList, error: DeskError): void {
  sendJson(res, status, JSON.stringify({ ok: false, error }), headers);
}

function unauthorized(res: ServerResponse, headers: HeaderList): void {
  headers.push('WWW-Authenticate', 'Bearer realm="ratedesk-desk"');
  envelope(res, 401, headers, {
    code: 'unauthorized',
    message:
      'This desk is not signed in to the company server (its device was revoked or its user disabled).',
  });
}
