// A local CDEK API v2 (protocols.md §2) for sandbox mode and tests: OAuth client-credentials tokens,
// POST /calculator/tarifflist and GET /location/cities under /v2, validating and failing the way CDEK does,
// so the adapter runs against it unchanged. Prices come from the shared deterministic model.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sandboxBehaviour } from '../sandbox-triggers';
import { findCdekCities, type SimCdekCity } from './cdek-cities';
import { answerDeliveryPoints } from './cdek-points';
import { quoteOneTariff, quoteTariffs } from './cdek-tariffs';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import { readBody } from './read-body';
import { isRecord, postalCodeOf, recognise, validateTariffListRequest } from './cdek-validate';

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

  /**
   * POST /calculator/tariff: the tarifflist body (less `lang`) plus `tariff_code` and `services[]`; only
   * INSURANCE is known here, its parameter a number of roubles (the official plugin sends an integer).
   */
  function oneTariff(res: ServerResponse, body: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(res, 400, cdekErrors('v2_invalid_format', 'Неверный формат запроса: некорректный JSON'));
    }
    const request = validateTariffListRequest(parsed);
    if (!request.ok) return send(res, 400, cdekErrors(request.code, request.message));
    const raw = parsed as Record<string, unknown>;
    if (raw.tariff_code === undefined || raw.tariff_code === null)
      return send(res, 400, cdekErrors('v2_field_is_empty', 'Не заполнено обязательное поле [tariff_code]'));
    if (!Number.isInteger(raw.tariff_code))
      return send(res, 400, cdekErrors('v2_invalid_value_type', 'Invalid value type in [tariff_code] field'));
    let insured = 0;
    const services = raw.services ?? [];
    if (!Array.isArray(services))
      return send(res, 400, cdekErrors('v2_invalid_value_type', 'Invalid value type in [services] field'));
    for (const [i, service] of services.entries()) {
      if (!isRecord(service) || typeof service.code !== 'string')
        return send(
          res,
          400,
          cdekErrors('v2_invalid_value_type', `Invalid value type in [services[${i}].code] field`),
        );
      if (service.code !== 'INSURANCE')
        return send(
          res,
          400,
          cdekErrors('v2_entity_not_found', `Дополнительная услуга ${service.code} не найдена`),
        );
      const value = typeof service.parameter === 'string' ? Number(service.parameter) : service.parameter;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        return send(
          res,
          400,
          cdekErrors('v2_invalid_value_type', `Invalid value type in [services[${i}].parameter] field`),
        );
      insured = value;
    }
    switch (sandboxBehaviour('cdek', postalCodeOf(request.to))) {
      case 'timeout':
        return;
      case 'error':
        return send(res, 500, cdekErrors('v2_internal_error', 'Внутренняя ошибка сервера'));
      case 'no_service':
      case 'ok':
        break;
    }
    const fromPostal = recognise(request.from);
    const toPostal = recognise(request.to);
    if (!fromPostal)
      return send(
        res,
        400,
        cdekErrors('v2_sender_location_not_recognized', 'Не удалось определить город отправителя'),
      );
    if (!toPostal)
      return send(
        res,
        400,
        cdekErrors('v2_recipient_location_not_recognized', 'Не удалось определить город получателя'),
      );
    const result = quoteOneTariff(
      fromPostal,
      toPostal,
      request.packages,
      request.type,
      raw.tariff_code as number,
      insured,
    );
    if (!result)
      return send(res, 400, {
        errors: [
          {
            code: 'err_result_service_empty',
            message: 'По данному направлению при заданных условиях выбранный тариф недоступен',
          },
        ],
      });
    send(res, 200, result as unknown as Json);
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
        payment_limit: simPaymentLimit(c.city),
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
      case 'POST /v2/calculator/tariff':
        if (authorised(req, res)) oneTariff(res, body);
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

/**
 * The COD ceiling (`payment_limit`, roubles; -1 none, 0 no cash on delivery) the simulator gives a town: none
 * for the cities, and for the two places without city status its own made-up figures, so that both refusals
 * happen in the sandbox. CDEK's real ceilings are its own.
 */
const SIM_PAYMENT_LIMITS: ReadonlyMap<string, number> = new Map([
  ['Сириус', 0],
  ['Кольцово', 30_000],
]);

export function simPaymentLimit(city: string): number {
  return SIM_PAYMENT_LIMITS.get(city) ?? -1;
}

function cdekErrors(code: string, message: string): Json {
  return { errors: [{ code, message }] };
}

function boundedInt(text: string | null, fallback: number): number {
  const n = text === null ? NaN : Number(text);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, 10_000) : fallback;
}
