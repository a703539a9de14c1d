// Turning CDEK's `errors[]` into the aggregator's failure kinds. CDEK publishes no complete list of calculator
// error codes (protocols.md §2.8); the codes below are the ones its SDKs and integrators handle. Codes compare
// case-insensitively: API v1.5 spelt them ERR_RESULT_SERVICE_EMPTY, v2 spells them err_result_service_empty.
import type { CarrierFailure } from '../types';
import type { CdekApiError } from './schema';

/**
 * "No tariff for this route and parcel under this contract": another contract type may still have one, so
 * the adapter tries it (carriers.cdek.contract_type). err_result_service_empty ("По данному направлению при
 * заданных условиях выбранный тариф недоступен") is captured with that text in a CDEK client's tests
 * (code-search id 70939038982) and shown as «Доставка по этому адресу недоступна» by a shop on cdek-it/sdk2.0
 * (id 55827153627); a CDEK client's error table lists the other two beside it as undocumented codes of the
 * same family (id 71401528665).
 */
const NO_TARIFF_CODES: ReadonlySet<string> = new Set([
  'err_result_service_empty',
  'err_invalid_tarifftypecode',
  'err_invalid_tariff_with_datetimeordersend',
]);

/**
 * CDEK does not serve the place (AntistressStore/cdek-sdk-v2 Constants::ERRORS; the v1.5 postal-code codes
 * ERR_SENDCITYPOSTCODE/ERR_RECCITYPOSTCODE "not in the CDEK database"). Another contract type does not help.
 */
const UNSERVED_PLACE_CODES: ReadonlySet<string> = new Set([
  'v2_sender_location_not_recognized',
  'v2_recipient_location_not_recognized',
  'err_sendcitypostcode',
  'err_reccitypostcode',
]);

/** Faults CDEK documents (AntistressStore Constants::ERRORS, sdk2.0 ApiResponse): carrier errors, expected. */
const KNOWN_FAULT_CODES: ReadonlySet<string> = new Set([
  'v2_internal_error',
  'v2_similar_request_still_processed',
  'v2_bad_request',
  'v2_invalid_format',
  'v2_field_is_empty',
  'v2_parameters_empty',
  'v2_invalid_value_type',
  'v2_entity_not_found',
  'v2_required_param_empty',
  'v2_token_expired',
  'internal_error',
]);

/** Codes nobody has listed for us, read by their words: still "no service", but logged as unknown. */
const UNSERVED_PLACE_PATTERN = /location_not_recognized|city_not_found|location_not_found/i;
const NO_TARIFF_PATTERN = /no_tariff|tariff_not_(?:found|available)|service_empty/i;

type Cause = 'no_tariff' | 'unserved_place' | 'fault';

function causeOf(code: string): Cause {
  const c = code.toLowerCase();
  if (NO_TARIFF_CODES.has(c) || NO_TARIFF_PATTERN.test(c)) return 'no_tariff';
  if (UNSERVED_PLACE_CODES.has(c) || UNSERVED_PLACE_PATTERN.test(c)) return 'unserved_place';
  return 'fault';
}

/** A code none of the tables above names: the adapter logs it so the list can grow. */
export function isKnownCode(code: string): boolean {
  const c = code.toLowerCase();
  return NO_TARIFF_CODES.has(c) || UNSERVED_PLACE_CODES.has(c) || KNOWN_FAULT_CODES.has(c);
}

export function isNoServiceError(error: CdekApiError): boolean {
  return causeOf(error.code) !== 'fault';
}

export function describeErrors(errors: readonly CdekApiError[]): string {
  return errors.map((e) => (e.message ? `${e.code}: ${e.message}` : e.code)).join('; ');
}

export interface ErrorClassification {
  failure: CarrierFailure;
  /** Every error says "no tariff" (not "unknown place"): the other contract type may have one. */
  noTariff: boolean;
}

/**
 * All errors of the "no service" family → no_service; any other error makes it a carrier error, because
 * then something other than the route is wrong and the operator should see the codes.
 */
export function classifyCdekErrors(errors: readonly CdekApiError[]): ErrorClassification {
  const causes = errors.map((e) => causeOf(e.code));
  if (errors.length > 0 && causes.every((c) => c !== 'fault')) {
    return {
      failure: { kind: 'no_service', detail: describeErrors(errors) },
      noTariff: causes.every((c) => c === 'no_tariff'),
    };
  }
  return {
    failure: { kind: 'carrier_error', detail: `CDEK error ${describeErrors(errors)}` },
    noTariff: false,
  };
}

export function classifyErrors(errors: readonly CdekApiError[]): CarrierFailure {
  return classifyCdekErrors(errors).failure;
}
