// The built-in carriers as the platform uses them: each descriptor (core/carriers/built-in.ts) with its heavy
// half loaded, its settings read under its own prefix, and the location resolver narrowed to what it declared.
// The registry builds adapters from these; the live check runs their steps; the benchmarks and the chaos suite
// start their simulators. Nothing here names a carrier: a ninth one comes through the descriptor list alone.
import { CARRIER_DESCRIPTORS, type BuiltInDescriptor } from '../carriers/built-in';
import type { CarrierCheckStep } from '../carriers/check';
import type {
  AdapterTarget,
  CarrierEnvironment,
  CarrierImplementation,
  CarrierSettingsDescription,
  CarrierSettingsReader,
} from '../carriers/descriptor';
import type { SimulatorHandle } from '../carriers/simulators/handle';
import type { CarrierAdapter, CarrierCode } from '../carriers/types';
import { createLocationResolver, type LocationResolver, type LocationWant } from '../locations/resolver';
import type { SettingName } from '../settings/schema';
import type { SettingsView } from '../settings/view';
import { silentLogger } from '../util/logger';

export type { AdapterTarget, CarrierEnvironment };

/** A built-in carrier ready to build: its descriptor's data and its implementation, read through settings. */
export interface BuiltInCarrier {
  code: CarrierCode;
  descriptor: BuiltInDescriptor;
  /** Setting names whose change rebuilds the adapter: the carrier's account fields and options. */
  configKeys: readonly SettingName[];
  quotesFromLocalData: boolean;
  create(target: AdapterTarget, settings: SettingsView, environment?: CarrierEnvironment): CarrierAdapter;
  checks(
    target: AdapterTarget,
    settings: SettingsView,
    environment?: CarrierEnvironment,
  ): readonly CarrierCheckStep[];
  startSimulator(options: { latencyMs: number }): Promise<SimulatorHandle>;
}

const loaded = new Map<CarrierCode, Promise<BuiltInCarrier>>();

/** One built-in carrier, its heavy half loaded once per process. */
export function builtInCarrier(code: CarrierCode): Promise<BuiltInCarrier> {
  let carrier = loaded.get(code);
  if (!carrier) {
    const descriptor = CARRIER_DESCRIPTORS.find((d) => d.code === code);
    if (!descriptor) return Promise.reject(new Error(`no built-in carrier ${code}`));
    carrier = load(descriptor);
    loaded.set(code, carrier);
  }
  return carrier;
}

/** Every built-in carrier, in display order. */
export function builtInCarriers(): Promise<BuiltInCarrier[]> {
  return Promise.all(CARRIER_DESCRIPTORS.map((d) => builtInCarrier(d.code)));
}

async function load(descriptor: BuiltInDescriptor): Promise<BuiltInCarrier> {
  // Each descriptor's load is typed by its own fields; the reader below serves any of them by name.
  const implementation = (await descriptor.load()) as CarrierImplementation<string>;
  const spec: CarrierSettingsDescription = descriptor.settings;
  const fields = [...Object.keys(spec.credentials ?? {}), ...Object.keys(spec.options ?? {})];
  const reader = (view: SettingsView): CarrierSettingsReader<string> => ({
    get: (field) => view.get(`carriers.${descriptor.code}.${field}` as SettingName),
  });
  const environmentFor = (environment: CarrierEnvironment = defaultEnvironment()): CarrierEnvironment => ({
    ...environment,
    locations: declaredOnly(descriptor.code, descriptor.locations, environment.locations),
  });
  return {
    code: descriptor.code,
    descriptor,
    configKeys: fields.map((f) => `carriers.${descriptor.code}.${f}` as SettingName),
    quotesFromLocalData: 'quotesFromLocalData' in descriptor,
    create: (target, view, environment) =>
      implementation.create(target, reader(view), environmentFor(environment)),
    checks: (target, view, environment) =>
      implementation.checks(target, reader(view), environmentFor(environment)),
    startSimulator: (options) => implementation.startSimulator(options),
  };
}

/**
 * The resolver as a carrier sees it: only the places its descriptor declares. An adapter that asks for
 * anything else fails its quote loudly (a carrier_error naming the want) instead of silently depending on
 * a lookup nobody listed: the descriptor stays the truth about what a carrier needs.
 */
export function declaredOnly(
  code: string,
  declared: readonly LocationWant[],
  resolver: LocationResolver,
): LocationResolver {
  return {
    resolve: (place, want, options) => {
      if (!declared.includes(want)) {
        return Promise.reject(new Error(`${code} asked for ${want}, which its descriptor does not declare`));
      }
      return resolver.resolve(place, want, options);
    },
  };
}

/** One in-memory resolver for every adapter built without an environment, so they share what CDEK said. */
let fallbackEnvironment: CarrierEnvironment | undefined;
function defaultEnvironment(): CarrierEnvironment {
  fallbackEnvironment ??= { locations: createLocationResolver(), logger: silentLogger };
  return fallbackEnvironment;
}
