// Carriers as the desk manages them: every carrier the core knows, its health, base URL and credentials.
import { z } from 'zod';
import { CarrierStatus } from '../v1';
import { NoInput, Timestamp } from './common';

export const CarrierView = z.object({
  code: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  status: CarrierStatus,
  last_error: z.string().nullable(),
  last_success_at: Timestamp.nullable(),
  median_latency_ms: z.number().nullable(),
  /** Used in live mode; sandbox mode talks to the built-in simulators whatever this says. */
  base_url: z.string(),
  default_base_url: z.string(),
  /** Null for carriers that need no account (Russian Post's public tariff calculator). */
  credentials: z
    .object({
      client_id: z.string(),
      /** `••••abcd` or '' when none is stored; the full secret never leaves the core. */
      client_secret_masked: z.string(),
      configured: z.boolean(),
    })
    .nullable(),
});
export type CarrierView = z.output<typeof CarrierView>;

export const carrierOperations = {
  'carriers:list': { input: NoInput, output: z.array(CarrierView) },
  'carriers:update': {
    input: z.strictObject({
      code: z.string().min(1).max(40),
      enabled: z.boolean().optional(),
      base_url: z.string().max(2000).optional(),
      client_id: z.string().max(200).optional(),
      /** '' clears it. */
      client_secret: z.string().max(200).optional(),
    }),
    output: CarrierView,
  },
} as const;
