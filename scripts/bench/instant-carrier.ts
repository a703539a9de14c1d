import type { CarrierAdapter } from '../../core/carriers/types';

/** Answers at once with one fixed rate: isolates the listener and bookkeeping from carrier HTTP. */
export const instantCarrier: CarrierAdapter = {
  code: 'instant',
  name: 'Instant (benchmark)',
  quote: async () => ({
    ok: true,
    rates: [
      {
        carrier: 'instant',
        carrier_name: 'Instant (benchmark)',
        service_code: 'instant:1',
        service_name: 'Benchmark',
        delivery_type: 'door',
        price_kopecks: 12345,
        currency: 'RUB',
        days_min: 1,
        days_max: 2,
        price_type: 'public',
      },
    ],
  }),
};

/**
 * The same rate after `latencyMs` (a timer, no HTTP): a carrier's latency without the CPU of simulators, so a
 * run at 100 req/s measures what the store adds to a quote, not a machine saturated by eight simulators.
 */
export function delayedCarrier(latencyMs: number): CarrierAdapter {
  return {
    ...instantCarrier,
    quote: async (request, context) => {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return instantCarrier.quote(request, context);
    },
  };
}
