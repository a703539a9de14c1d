// The last result kept across screen switches and restarts (issue #9), in localStorage beside the form's
// draft. Stored as plain JSON and read back defensively: a result from an older build, or a hand-edited
// value, is dropped rather than shown half-broken. Pure (no storage access here): unit-tested in Node.
import type { ShipmentInput } from '../../../../core/contract/v1';
import type { UnavailableKind } from '../../../../core/desk/contract';
import { rateKey, sortedOrder, type Rate, type Sort } from './logic';
import { IDLE, type CarrierRun, type RunState } from './run';

const VERSION = 1;

interface StoredRun {
  v: typeof VERSION;
  carriers: CarrierRun[];
  rates: Rate[];
  shipment: ShipmentInput;
  quoteId: number | null;
  sandbox: boolean | null;
}

/** Only a finished run is worth keeping; anything else stores nothing (null). */
export function storableRun(state: RunState): StoredRun | null {
  if (state.phase !== 'done' || !state.shipment) return null;
  return {
    v: VERSION,
    carriers: state.carriers,
    rates: state.order.map((k) => state.rates.get(k)).filter((r): r is Rate => r !== undefined),
    shipment: state.shipment,
    quoteId: state.quoteId,
    sandbox: state.sandbox,
  };
}

const KINDS: ReadonlySet<string> = new Set<UnavailableKind>([
  'no_service',
  'not_configured',
  'postal_code_required',
  'carrier_error',
  'timeout',
  'unknown_carrier',
  'disabled',
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRate(v: unknown): v is Rate {
  if (!isObject(v)) return false;
  const days = (d: unknown): boolean => d === undefined || d === null || (typeof d === 'number' && d >= 0);
  return (
    typeof v['carrier'] === 'string' &&
    typeof v['carrier_name'] === 'string' &&
    typeof v['service_code'] === 'string' &&
    typeof v['service_name'] === 'string' &&
    typeof v['delivery_type'] === 'string' &&
    typeof v['price_kopecks'] === 'number' &&
    Number.isInteger(v['price_kopecks']) &&
    days(v['days_min']) &&
    days(v['days_max'])
  );
}

function isCarrierRun(v: unknown): v is CarrierRun {
  if (!isObject(v) || typeof v['code'] !== 'string') return false;
  if (v['state'] === 'answered') return true;
  return v['state'] === 'unavailable' && typeof v['kind'] === 'string' && KINDS.has(v['kind']);
}

function isPlace(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v['city'] === 'string' &&
    (v['postal_code'] === undefined || v['postal_code'] === null || typeof v['postal_code'] === 'string')
  );
}

function isShipment(v: unknown): v is ShipmentInput {
  if (!isObject(v) || !isPlace(v['from']) || !isPlace(v['to']) || !isObject(v['parcel'])) return false;
  const p = v['parcel'];
  return ['weight_grams', 'length_cm', 'width_cm', 'height_cm'].every((k) => typeof p[k] === 'number');
}

/** The stored run as a screen state (finished, not listening to any run's events), or idle. */
export function restoreRun(raw: unknown, sort: Sort): RunState {
  if (!isObject(raw) || raw['v'] !== VERSION) return IDLE;
  const { carriers, rates, shipment, quoteId, sandbox } = raw;
  if (!Array.isArray(rates) || !rates.every(isRate)) return IDLE;
  if (!Array.isArray(carriers) || !carriers.every(isCarrierRun)) return IDLE;
  if (!isShipment(shipment)) return IDLE;
  const map = new Map(rates.map((r) => [rateKey(r), r]));
  return {
    ...IDLE,
    phase: 'done',
    carriers,
    rates: map,
    order: sortedOrder(map.values(), sort),
    shipment,
    quoteId: typeof quoteId === 'number' ? quoteId : null,
    sandbox: typeof sandbox === 'boolean' ? sandbox : null,
  };
}
