// DPD Russia adapter: SOAP calculator2 getServiceCost2 (protocols.md §6, verified-2026 §6). Two calls per
// quote, in parallel: courier to the door (selfDelivery=false) and to a pickup point (selfDelivery=true), since
// DPD prices the same service once per value. Speaks the live protocol unchanged, so the same code talks to
// ws.dpd.ru, wstest.dpd.ru and the local simulator.
import { createLocationResolver, type LocationResolver } from '../../locations/resolver';
import { silentLogger, type Logger } from '../../util/logger';
import { CarrierHttpError, carrierRequest } from '../http';
import type { CarrierAdapter, CarrierFailure, CarrierOutcome, CarrierQuoteRequest } from '../types';
import { DPD_LIMITS } from './limits';
import { locateForDpd, retryPlace, type DpdPlace } from './locations';
import { DPD_CARRIER_CODE, DPD_CARRIER_NAME, readCostAnswer, withOptions, type CostReading } from './mapper';
import { buildServiceCostEnvelope, operationFor, type DpdCity } from './request';

export const DPD_CALCULATOR_PATH = '/calculator2';

export interface DpdAdapterOptions {
  /** Services base: https://ws.dpd.ru/services, https://wstest.dpd.ru/services or the simulator's. */
  baseUrl: string;
  /** Client number (clientNumber, digits) and key (clientKey) of the DPD contract. */
  clientNumber: string | null;
  clientKey: string | null;
  /** The contract's currency (setting carriers.dpd.contract_currency); DPD's answer does not name it. */
  contractCurrency?: string;
  locations?: LocationResolver;
  logger?: Logger;
}

/** SOAP 1.1 over HTTP: text/xml and an empty SOAPAction, as DPD's JAX-WS endpoint and the captured request take it. */
export const DPD_SOAP_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/xml; charset=utf-8',
  SOAPAction: '""',
  Accept: 'text/xml',
};

/** The contract's client number and key, trimmed, or what is missing (then nothing is sent to DPD). */
export function dpdAccount(
  options: Pick<DpdAdapterOptions, 'clientNumber' | 'clientKey'>,
): { ok: true; clientNumber: string; clientKey: string } | { ok: false; missing: string } {
  const clientNumber = options.clientNumber?.trim() ?? '';
  const clientKey = options.clientKey?.trim() ?? '';
  if (clientNumber === '') return { ok: false, missing: 'DPD client number is not set' };
  if (!/^\d{1,19}$/.test(clientNumber)) return { ok: false, missing: 'DPD client number must be digits' };
  if (clientKey === '') return { ok: false, missing: 'DPD client key is not set' };
  return { ok: true, clientNumber, clientKey };
}

export const dpdEndpoint = (baseUrl: string): string =>
  `${baseUrl.replace(/\/+$/, '')}${DPD_CALCULATOR_PATH}`;

/** Places chosen after DPD's candidates, by place, so an ambiguous name costs one Fault per adapter, not per quote. */
const CHOSEN_LIMIT = 512;

export function createDpdAdapter(options: DpdAdapterOptions): CarrierAdapter {
  const account = dpdAccount(options);
  if (!account.ok) {
    const detail = account.missing;
    return {
      code: DPD_CARRIER_CODE,
      name: DPD_CARRIER_NAME,
      limits: DPD_LIMITS,
      quote: async () => ({ ok: false, kind: 'not_configured', detail }),
    };
  }
  const { clientNumber, clientKey } = account;
  const endpoint = dpdEndpoint(options.baseUrl);
  const currency = options.contractCurrency?.trim().toUpperCase() || 'RUB';
  const resolver = options.locations ?? createLocationResolver();
  const logger = options.logger ?? silentLogger;
  const chosen = new Map<string, DpdCity>();

  const keyOf = (p: DpdPlace): string => `${p.typed.toLowerCase()}|${p.postalCode ?? ''}`;
  const requestFor = (p: DpdPlace): DpdCity => chosen.get(keyOf(p)) ?? p.request;

  async function call(
    pickup: DpdCity,
    delivery: DpdCity,
    selfDelivery: boolean,
    request: CarrierQuoteRequest,
    signal: AbortSignal,
  ): Promise<CostReading> {
    const body = buildServiceCostEnvelope({
      clientNumber,
      clientKey,
      pickup,
      delivery,
      selfDelivery,
      places: request.places,
      declaredValueKopecks: request.declaredValueKopecks,
    });
    try {
      const res = await carrierRequest(endpoint, {
        method: 'POST',
        headers: { ...DPD_SOAP_HEADERS },
        body,
        signal,
      });
      const reading = withOptions(
        readCostAnswer(res.status, res.text, selfDelivery, currency, operationFor(request.places)),
        request,
      );
      if (reading.kind === 'failure' && reading.unknownFault) {
        // DPD publishes no list of fault codes; an unknown one is how we learn it exists.
        logger.warn('DPD answered a fault RateDesk does not know', {
          ...reading.unknownFault,
          status: res.status,
          outcome: reading.failure.kind,
        });
      }
      return reading;
    } catch (err) {
      if (err instanceof CarrierHttpError && !signal.aborted) {
        return { kind: 'failure', failure: { kind: 'carrier_error', detail: `DPD: ${err.message}` } };
      }
      throw err;
    }
  }

  const both = (from: DpdPlace, to: DpdPlace, request: CarrierQuoteRequest, signal: AbortSignal) =>
    Promise.all(
      [false, true].map((selfDelivery) =>
        call(requestFor(from), requestFor(to), selfDelivery, request, signal),
      ),
    );

  /** Chooses among the candidates of the first ambiguous answer; a failure when nothing can settle it. */
  function resolveAmbiguity(
    reading: Extract<CostReading, { kind: 'ambiguous' }>,
    from: DpdPlace,
    to: DpdPlace,
  ): CarrierFailure | null {
    for (const [place, dups] of [
      [from, reading.pickupDups],
      [to, reading.deliveryDups],
    ] as const) {
      if (dups.length === 0) continue;
      const retry = retryPlace(place, dups);
      if (!retry) {
        const regions = [...new Set(dups.map((d) => d.regionName).filter(Boolean))].join(', ');
        return {
          kind: 'city_not_found',
          detail: `${place.typed} is ambiguous for DPD (${regions || reading.detail})`,
        };
      }
      if (chosen.size >= CHOSEN_LIMIT) chosen.clear();
      chosen.set(keyOf(place), retry);
    }
    return null;
  }

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    const [from, to] = await Promise.all([
      locateForDpd(resolver, request.from, signal),
      locateForDpd(resolver, request.to, signal),
    ]);
    if (!from.ok) return { ok: false, ...from.failure };
    if (!to.ok) return { ok: false, ...to.failure };

    let readings = await both(from.place, to.place, request, signal);
    const ambiguous = readings.find((r) => r.kind === 'ambiguous');
    if (ambiguous?.kind === 'ambiguous') {
      const failure = resolveAmbiguity(ambiguous, from.place, to.place);
      if (failure) return { ok: false, ...failure };
      // Once: a place still ambiguous by cityId or by its index is not DPD's to settle, nor ours to guess.
      readings = await both(from.place, to.place, request, signal);
    }
    return combine(readings);
  }

  return {
    code: DPD_CARRIER_CODE,
    name: DPD_CARRIER_NAME,
    limits: DPD_LIMITS,
    quote: (request, { signal }) => quote(request, signal),
  };
}

/** Any rate wins; else the first real failure (it says more than "no service"); else no service. */
export function combine(readings: readonly CostReading[]): CarrierOutcome {
  const rates = readings.flatMap((r) => (r.kind === 'rates' ? r.rates : []));
  if (rates.length > 0) return { ok: true, rates };
  for (const r of readings) if (r.kind === 'failure') return { ok: false, ...r.failure };
  for (const r of readings) {
    if (r.kind === 'ambiguous') return { ok: false, kind: 'city_not_found', detail: `DPD: ${r.detail}` };
  }
  const detail = readings.find((r) => r.kind === 'no_service')?.detail;
  return { ok: false, kind: 'no_service', ...(detail ? { detail } : {}) };
}
