// Events the core pushes to the desk, with their payloads.
import { z } from 'zod';
import { CarrierStatus } from '../v1';
import { Id, Timestamp } from './common';
import { companyEventSchemas } from './company';
import { BulkRowResult, BulkRunKey } from './bulk';
import { QuoteKey, QuoteProgress } from './quotes';

export const deskEventSchemas = {
  'quote:progress': z.object({ quoteKey: QuoteKey, progress: QuoteProgress }),
  /** A row of a bulk run was quoted (#21): `done` of `total` so far, and that row's result. */
  'bulk:progress': z.object({
    runKey: BulkRunKey,
    done: z.int().min(0),
    total: z.int().min(0),
    row: BulkRowResult,
  }),
  /** After a /v1 charge or a desk top-up. */
  'balance:changed': z.object({ account_id: Id, account: z.string(), balance: z.number() }),
  /** A low-balance threshold was crossed (also recorded in notifications:list). */
  'balance:low': z.object({ account: z.string(), threshold: z.number(), balance: z.number(), at: Timestamp }),
  'carriers:status': z.object({ code: z.string(), status: CarrierStatus, last_error: z.string().nullable() }),
  /** The desk's link to its company server changed (company mode, or back to local). */
  ...companyEventSchemas,
} as const;

export type DeskEventName = keyof typeof deskEventSchemas;
export const DESK_EVENT_NAMES = Object.keys(deskEventSchemas) as DeskEventName[];
export type DeskEventPayload<E extends DeskEventName> = z.output<(typeof deskEventSchemas)[E]>;
