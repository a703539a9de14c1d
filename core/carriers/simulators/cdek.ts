// A local CDEK API v2 (protocols.md §2) for sandbox mode and tests: OAuth client-credentials tokens,
// POST /calculator/tarifflist and GET /location/cities under /v2, validating and failing the way CDEK does,
// so the adapter runs against it unchanged. Prices come from the shared deterministic model.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { cdekCityByCode, findCdekCities, isKnownPostalCode, type SimCdekCity } from './cdek-cities';
import { answerDeliveryPoints } from './cdek-points';
import { quoteTariffs, type SimPackage } from './cdek-tariffs';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import { readBody } from './read-body';

/** CDEK's published test account (protocols.md §2.3), so the sandbox works with the documented values. */
export const CDEK_TEST_CLIENT_ID = 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP';
export const CDEK_TEST_CLIENT_SECRET = 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5';

export interface CdekSimulatorOptions {
  /** Delay before every answer, ms. */
  latencyMs?: number;
  clientId?: string;
  clientSecret?: string;
  /** expires_in of issued tokens; the simulator rejects them (401) after that, by the real clock. */
  tokenTtlSeconds?: number;
}

export interface CdekSimulatorHandle extends SimulatorHandle {
  /** POST /oauth/token calls received, successful or not. */
  tokenRequests(): number;
  /** Invalidate every issued token, as CDEK does on a key rotation: the next call with one gets 401. */
  revokeTokens(): void;
}

const SANDBOX_POSTAL_CODES: ReadonlySet<string> = ALL_TRIGGER_CODES;
const DEFAULT_TOKEN_TTL_SECONDS = 3599;

type Json = Record<string, unknown> | unknown[];

export async function startCdekSimulator(options: CdekSimulatorOptions = {}): Promise<CdekSimulatorHandle> {
  const clientId = options.clientId ?? CDEK_TEST_CLIENT_ID;
  const clientSecret = options.clientSecret ?? CDEK_TEST_CLIENT_SECRET;
  const ttlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;

  const tokens = new Map<string, number>(); // token → expiry (epoch ms)
  const exchanges = new WeakMap<ServerResponse, SimulatorExchange>();
  let tokenCalls = 0;

  function send(res: ServerResponse, status: number, body: Json, headers: Record<string, string> = {}): void {
    exchanges
      .get(res)
      ?.send(status, JSON.stringify(body), { 'content-type': 'application/json;charset=UTF-8', ...headers });
  }

  function issueToken(res: ServerResponse, url: URL, body: string): void {
    tokenCalls += 1;
    // CDEK's docs put the parameters in the form body, its WordPress plugin in the query string: take both.
    const form = new URLSearchParams(body);
    const param = (name: string): string | null => form.get(name) ?? url.searchParams.get(name);
    if (param('grant_type') !== 'client_credentials') {
      return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Unsupported grant type' });
    }
    if (param('client_id') !== clientId || param('client_secret') !== clientSecret) {
      return send(res, 401, { error: 'invalid_client', error_description: 'Bad client credentials' });
    }
    const token = `eyJhbGciOiJSUzI1NiJ9.${randomBytes(24).toString('base64url')}.sim`;
    tokens.set(token, Date.now() + ttlSeconds * 1000);
    send(res, 200, {
      access_token: token,
      token_type: 'bearer',
      expires_in: ttlSeconds,
      scope: 'location:all order:all payment:all',
      jti: randomBytes(16).toString('hex'),
    });
  }

  /**
   * CDEK's resource server: no bearer → 401 "Full authentication is required" (Spring OAuth's words); a token
   * it never issued → 401 invalid_token; one it issued that has expired or was revoked → 401
   * `{"errors":[{"code":"v2_token_expired"}]}`, the body CDEK clients test for (code-search ids 71173202963,
   * 46864501328).
   */
  function authorised(req: IncomingMessage, res: ServerResponse): boolean {
    const m = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '');
    const expiry = m ? tokens.get(m[1]!) : undefined;
    if (expiry !== undefined && expiry > Date.now()) return true;
    const challenge = { 'www-authenticate': 'Bearer error="invalid_token"' };
    if (!m) {
      send(
        res,
        401,
        {
          error: 'unauthorized',
          error_description: 'Full authentication is required to access this resource',
        },
        { 'www-authenticate': 'Bearer' },
      );
    } else if (expiry === undefined) {
      send(
        res,
        401,
        { error: 'invalid_token', error_description: 'Cannot convert access token to JSON' },
        challenge,
      );
    } else {
      send(res, 401, cdekErrors('v2_token_expired', 'Токен авторизации истек'), challenge);
    }
    return false;
  }

  function tariffList(res: ServerResponse, body: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(res, 400, cdekErrors('v2_invalid_format', 'Неверный формат запроса: некорректный JSON'));
    }
    const request = validateTariffListRequest(parsed);
    if (!request.ok) return send(res, 400, cdekErrors(request.code, request.message));

    switch (sandboxBehaviour('cdek', postalCodeOf(request.to))) {
      case 'timeout':
        return; // never answer; close() destroys the socket
      case 'error':
        return send(res, 500, cdekErrors('v2_internal_error', 'Внутренняя ошибка сервера'));
      case 'no_service':
        // The answer CDEK gives a route it does not serve (the captured fixture of errors.ts).
        return send(res, 400, {
          errors: [
            {
              code: 'err_result_service_empty',
              additional_code: '0xBC236B02',
              message: 'По данному направлению при заданных условиях выбранный тариф недоступен',
            },
          ],
        });
      case 'ok':
        break;
    }

    const fromPostal = recognise(request.from);
    if (!fromPostal)
      return send(
        res,
        400,
        cdekErrors('v2_sender_location_not_recognized', 'Не удалось определить город отправителя'),
      );
    const toPostal = recognise(request.to);
    if (!toPostal)
      return send(
        res,
        400,
        cdekErrors('v2_recipient_location_not_recognized', 'Не удалось определить город получателя'),
      );

    send(res, 200, { tariff_codes: quoteTariffs(fromPostal, toPostal, request.packages, request.type) });
  }

  function locationCities(res: ServerResponse, url: URL): void {
    const q = url.searchParams;
    const countries = q.get('country_codes');
    if (
      countries !== null &&
      !countries
        .split(',')
        .map((c) => c.trim().toUpperCase())
        .includes('RU')
    ) {
      return send(res, 200, []);
    }
    let found: readonly SimCdekCity[] = findCdekCities({
      city: q.get('city'),
      code: q.get('code'),
      postalCode: q.get('postal_code'),
    });
    const size = boundedInt(q.get('size'), 500);
    const page = boundedInt(q.get('page'), 0);
    found = found.slice(page * size, page * size + size);
    send(
      res,
      200,
      found.map((c) => ({
        code: c.code,
        city: c.city,
        country_code: 'RU',
        country: 'Россия',
        ...(c.region ? { region: c.region } : {}),
        postal_codes: c.postalCodes,
      })),
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const body = await readBody(req);
    if (body === null) return send(res, 413, cdekErrors('v2_bad_request', 'Request body too large'));
    const route = `${req.method ?? ''} ${url.pathname.replace(/\/+$/, '')}`;
    switch (route) {
      case 'POST /v2/oauth/token':
        return issueToken(res, url, body);
      case 'POST /v2/calculator/tarifflist':
        if (authorised(req, res)) tariffList(res, body);
        return;
      case 'GET /v2/location/cities':
        if (authorised(req, res)) locationCities(res, url);
        return;
      case 'GET /v2/deliverypoints':
        if (authorised(req, res)) {
          const answer = answerDeliveryPoints(url.searchParams);
          send(res, answer.status, answer.body as Json);
        }
        return;
      default:
        return send(res, 404, cdekErrors('v2_entity_not_found', `No handler for ${route}`));
    }
  }

  const server = await startSimulatorServer(
    (exchange) => {
      exchanges.set(exchange.res, exchange);
      return handle(exchange.req, exchange.res);
    },
    {
      latencyMs: options.latencyMs ?? 0,
      basePath: '/v2',
      onError: ({ res }) => send(res, 500, cdekErrors('v2_internal_error', 'Внутренняя ошибка сервера')),
    },
  );
  return {
    ...server,
    tokenRequests: () => tokenCalls,
    // Revoked tokens stay known (expired now), so they are answered like CDEK answers an expired one.
    revokeTokens: () => {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
  };
}

function cdekErrors(code: string, message: string): Json {
  return { errors: [{ code, message }] };
}

function boundedInt(text: string | null, fallback: number): number {
  const n = text === null ? NaN : Number(text);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, 10_000) : fallback;
}

// ---- tarifflist request validation, in CDEK's error vocabulary (protocols.md §2.8) ----

interface SimLocation {
  code?: number;
  postal_code?: string;
  country_code?: string;
}

interface TariffListRequest {
  /** Contract type; CDEK defaults to 1 (online store) when it is left out (protocols.md §2.4). */
  type: 1 | 2;
  from: SimLocation;
  to: SimLocation;
  packages: SimPackage[];
}

type Validation = ({ ok: true } & TariffListRequest) | { ok: false; code: string; message: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function empty(field: string): Validation {
  return { ok: false, code: 'v2_field_is_empty', message: `Не заполнено обязательное поле [${field}]` };
}

function badType(field: string): Validation {
  return { ok: false, code: 'v2_invalid_value_type', message: `Invalid value type in [${field}] field` };
}

function validateTariffListRequest(body: unknown): Validation {
  if (!isRecord(body)) return { ok: false, code: 'v2_invalid_format', message: 'Неверный формат запроса' };
  if (body.type !== undefined && body.type !== 1 && body.type !== 2) return badType('type');

  const locations: SimLocation[] = [];
  for (const field of ['from_location', 'to_location'] as const) {
    const loc = body[field];
    if (loc === undefined || loc === null) return empty(field);
    if (!isRecord(loc)) return badType(field);
    if (loc.code !== undefined && !Number.isInteger(loc.code)) return badType(`${field}.code`);
    if (loc.postal_code !== undefined && typeof loc.postal_code !== 'string')
      return badType(`${field}.postal_code`);
    if (loc.country_code !== undefined && typeof loc.country_code !== 'string')
      return badType(`${field}.country_code`);
    if (loc.code === undefined && loc.postal_code === undefined) return empty(`${field}.code`);
    locations.push({
      code: loc.code as number | undefined,
      postal_code: loc.postal_code as string | undefined,
      country_code: loc.country_code as string | undefined,
    });
  }

  const packages = body.packages;
  if (packages === undefined || packages === null || (Array.isArray(packages) && packages.length === 0))
    return empty('packages');
  if (!Array.isArray(packages)) return badType('packages');
  const parsed: SimPackage[] = [];
  for (const [i, p] of packages.entries()) {
    if (!isRecord(p)) return badType(`packages[${i}]`);
    if (p.weight === undefined || p.weight === null) return empty(`packages[${i}].weight`);
    if (!Number.isInteger(p.weight) || (p.weight as number) <= 0) return badType(`packages[${i}].weight`);
    const pkg: SimPackage = { weight: p.weight as number };
    for (const dim of ['length', 'width', 'height'] as const) {
      const v = p[dim];
      if (v === undefined || v === null) continue;
      if (!Number.isInteger(v) || (v as number) <= 0) return badType(`packages[${i}].${dim}`);
      pkg[dim] = v as number;
    }
    parsed.push(pkg);
  }
  return {
    ok: true,
    type: body.type === 2 ? 2 : 1,
    from: locations[0]!,
    to: locations[1]!,
    packages: parsed,
  };
}

function postalCodeOf(loc: SimLocation): string | null {
  if (loc.postal_code !== undefined) return loc.postal_code;
  return loc.code !== undefined ? (cdekCityByCode(loc.code)?.mainPostalCode ?? null) : null;
}

/** The postal code the price model works with, or null when CDEK would not recognise the location. */
function recognise(loc: SimLocation): string | null {
  if (loc.country_code !== undefined && loc.country_code.toUpperCase() !== 'RU') return null;
  if (loc.postal_code !== undefined) {
    // Another carrier's trigger (999902…) must still get CDEK rates, or that trigger would fail every carrier.
    const known = isKnownPostalCode(loc.postal_code) || SANDBOX_POSTAL_CODES.has(loc.postal_code);
    return known ? loc.postal_code : null;
  }
  return loc.code !== undefined ? (cdekCityByCode(loc.code)?.mainPostalCode ?? null) : null;
}
