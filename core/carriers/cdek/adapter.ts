// CDEK API v2 adapter (protocols.md §2): token → locations → tarifflist → rates. Speaks the live protocol
// unchanged, so the same code runs against api.cdek.ru, api.edu.cdek.ru and the local simulator.
import { createLocationResolver, type LocationResolver } from '../../locations/resolver';
import { silentLogger, type Logger } from '../../util/logger';
import { CarrierHttpError } from '../http';
import type { CarrierRate } from '../../contract/quote-ext';
import type { CarrierAdapter, CarrierOutcome, CarrierQuoteRequest } from '../types';
import { createCdekApi } from './api';
import { CDEK_LIMITS } from './limits';
import { cdekCityDirectory, locateForCdek, type CdekLocation } from './locations';
import { CDEK_CARRIER_CODE, CDEK_CARRIER_NAME, readTariffList, type TariffListReading } from './mapper';
import {
  carriageOnly,
  codRefusal,
  insuranceNotQuoted,
  paymentLimitPath,
  readInsuredTariff,
  readPaymentLimit,
  withCodRefusal,
} from './options';
import {
  buildInsuredTariffRequest,
  buildTariffListRequest,
  type CdekContractType,
  type CdekTariffListRequest,
} from './request';
import type { CarrierCoordinationStore } from '../../store/port';
import { tokenSlotName } from '../shared-token';
import { CdekTokenSource } from './token';

export interface CdekAdapterOptions {
  /** API base, e.g. https://api.cdek.ru/v2 or https://api.edu.cdek.ru/v2 (a trailing slash is fine). */
  baseUrl: string;
  clientId: string | null;
  clientSecret: string | null;
  /**
   * The account's contract type (setting carriers.cdek.contract_type): 1 online store, 2 delivery. The other
   * type is asked when this one yields no tariff, as CDEK's official plugin asks both (cdek-it/wordpress
   * CalculateDeliveryAction.php, `foreach ([Tariff::SHOP_TYPE, Tariff::DELIVERY_TYPE] ...)`).
   */
  contractType?: CdekContractType;
  /** Clock for token expiry; injectable so tests can jump past a token's lifetime. */
  nowMs?: () => number;
  /** A company server's shared carrier state: one CDEK login for every instance. */
  coordination?: CarrierCoordinationStore;
  /** Places → postal codes and CDEK city codes; a private in-memory one when not given. */
  locations?: LocationResolver;
  /** Where error codes RateDesk does not know yet are reported. */
  logger?: Logger;
}

export function createCdekAdapter(options: CdekAdapterOptions): CarrierAdapter {
  const clientId = options.clientId?.trim() ?? '';
  const clientSecret = options.clientSecret?.trim() ?? '';
  if (clientId === '' || clientSecret === '') {
    const detail = `CDEK ${clientId === '' ? 'client id' : 'client secret'} is not set`;
    return {
      code: CDEK_CARRIER_CODE,
      name: CDEK_CARRIER_NAME,
      quote: async () => ({ ok: false, kind: 'not_configured', detail }),
    };
  }

  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const contractType: CdekContractType = options.contractType ?? 1;
  const logger = options.logger ?? silentLogger;
  const tokens = new CdekTokenSource({
    baseUrl,
    clientId,
    clientSecret,
    nowMs: options.nowMs ?? Date.now,
    ...(options.coordination
      ? {
          shared: {
            coordination: options.coordination,
            name: tokenSlotName('cdek', baseUrl, clientId, clientSecret),
          },
        }
      : {}),
  });
  const api = createCdekApi(baseUrl, tokens);
  const resolver = options.locations ?? createLocationResolver();
  // City codes belong to a host: the simulator's made-up ones must never answer for api.cdek.ru.
  const directory = cdekCityDirectory(api, `cdek ${baseUrl}`);

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    const [from, to] = await Promise.all([
      locateForCdek(resolver, directory, request.from, signal),
      locateForCdek(resolver, directory, request.to, signal),
    ]);
    if (!from.ok) return { ok: false, ...from.failure };
    if (!to.ok) return { ok: false, ...to.failure };

    // With cash on delivery, the recipient town's COD ceiling is asked beside the prices.
    const limit = request.codKopecks > 0 ? paymentLimit(to.location, signal) : Promise.resolve(null);
    const outcome = await bothContracts(from.location, to.location, request, signal);
    const refusal = codRefusal(await limit, request.codKopecks);
    if (!outcome.ok || !refusal) return outcome;
    return { ok: true, rates: outcome.rates.map((rate) => withCodRefusal(rate, refusal)) };
  }

  /** The COD ceiling of CDEK's town (options.ts); a failed lookup refuses nothing. */
  async function paymentLimit(to: CdekLocation, signal: AbortSignal): Promise<number | null> {
    try {
      const result = await api.get(paymentLimitPath(to), signal);
      return result.ok ? readPaymentLimit(result.response.status, result.response.json) : null;
    } catch (err) {
      if (err instanceof CarrierHttpError && !signal.aborted) return null;
      throw err;
    }
  }

  async function bothContracts(
    from: CdekLocation,
    to: CdekLocation,
    request: CarrierQuoteRequest,
    signal: AbortSignal,
  ): Promise<CarrierOutcome> {
    const first = await tariffList(from, to, request, contractType, signal);
    if (first.outcome.ok || !first.noTariff) return first.outcome;
    const other: CdekContractType = contractType === 1 ? 2 : 1;
    const second = await tariffList(from, to, request, other, signal);
    // Neither type has a tariff: the configured type's answer is the one to show.
    if (!second.outcome.ok && second.outcome.kind === 'no_service') return first.outcome;
    return second.outcome;
  }

  async function tariffList(
    from: CdekLocation,
    to: CdekLocation,
    request: CarrierQuoteRequest,
    type: CdekContractType,
    signal: AbortSignal,
  ): Promise<TariffListReading> {
    const body = buildTariffListRequest(from, to, request.places, type);
    const result = await api.postJson('/calculator/tarifflist', body, signal);
    if (!result.ok) return { outcome: { ok: false, ...result.failure }, noTariff: false, unknownCodes: [] };
    const reading = readTariffList(result.response.status, result.response.json);
    if (reading.outcome.ok) {
      const rates = reading.outcome.rates;
      reading.outcome.rates =
        request.declaredValueKopecks > 0
          ? await Promise.all(rates.map((rate) => insured(rate, body, request, signal)))
          : rates.map((rate) => carriageOnly(rate, request.codKopecks));
    }
    if (reading.unknownCodes.length > 0) {
      // CDEK publishes no complete code list; an unknown one is how we learn it exists and what it meant.
      logger.warn('CDEK answered an error code RateDesk does not know', {
        codes: reading.unknownCodes,
        status: result.response.status,
        outcome: reading.outcome.ok ? 'rates' : reading.outcome.kind,
        contract_type: type,
      });
    }
    return reading;
  }

  /**
   * One tariff of the list priced again with the declared value (options.ts), all of them at once. A tariff
   * CDEK cannot price so keeps its carriage price and says insurance is not in it.
   */
  async function insured(
    rate: CarrierRate,
    list: CdekTariffListRequest,
    request: CarrierQuoteRequest,
    signal: AbortSignal,
  ): Promise<CarrierRate> {
    const code = Number(rate.service_code.slice(CDEK_CARRIER_CODE.length + 1));
    const body = buildInsuredTariffRequest(list, code, request.declaredValueKopecks);
    try {
      const result = await api.postJson('/calculator/tariff', body, signal);
      if (!result.ok) return insuranceNotQuoted(rate, request.codKopecks, result.failure);
      const read = readInsuredTariff(rate, result.response.status, result.response.json, request.codKopecks);
      return read.ok ? read.rate : insuranceNotQuoted(rate, request.codKopecks, read.detail);
    } catch (err) {
      if (err instanceof CarrierHttpError && !signal.aborted)
        return insuranceNotQuoted(rate, request.codKopecks, err.message);
      throw err;
    }
  }

  return {
    code: CDEK_CARRIER_CODE,
    name: CDEK_CARRIER_NAME,
    limits: CDEK_LIMITS,
    async quote(request, { signal }) {
      try {
        return await quote(request, signal);
      } catch (err) {
        // Carrier faults become outcomes; an abort (timeout/deadline) and our own bugs propagate.
        if (err instanceof CarrierHttpError && !signal.aborted) {
          return { ok: false, kind: 'carrier_error', detail: `CDEK: ${err.message}` };
        }
        throw err;
      }
    },
  };
}
