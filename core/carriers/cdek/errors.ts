// Turning CDEK's `errors[]` into the aggregator's failure kinds. CDEK publishes no complete list of
// calculator error codes (protocols.md §2.8), so besides the known codes a few patterns catch the
// "we cannot serve this route" family; everything else is reported as a carrier error with its code.
import type { CarrierFailure } from '../types';
import type { CdekApiError } from './schema';

const NO_SERVICE_CODES: ReadonlySet<string> = new Set([
  'v2_sender_location_not_recognized',
  'v2_recipient_location_not_recognized',
]);

/** Location not known to CDEK, or no tariff for the route/parcel: the answer "no service", not a fault. */
const NO_SERVICE_PATTERN =
  /location_not_recognized|city_not_found|location_not_found|no_tariff|tariff_not_(?:found|available)/i;

export function isNoServiceError(error: CdekApiError): boolean {
  return NO_SERVICE_CODES.has(error.code) || NO_SERVICE_PATTERN.test(error.code);
}

export function describeErrors(errors: readonly CdekApiError[]): string {
  return errors.map((e) => (e.message ? `${e.code}: ${e.message}` : e.code)).join('; ');
}

/**
 * All errors of the "no service" family → no_service; any other error makes it a carrier error, because
 * then something other than the route is wrong and the operator should see the codes.
 */
export function classifyErrors(errors: readonly CdekApiError[]): CarrierFailure {
  if (errors.length > 0 && errors.every(isNoServiceError)) {
    return { kind: 'no_service', detail: describeErrors(errors) };
  }
  return { kind: 'carrier_error', detail: `CDEK error ${describeErrors(errors)}` };
}
