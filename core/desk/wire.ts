// The desk gateway's wire (#20): the paths, bodies and event framing that the company server's gateway
// (core/desk/gateway/) and the desk's client (core/desk/remote/) share, so the two cannot drift. Beside /v1,
// never inside it: docs/api.md "Desk gateway (extension beside /v1)".
import { z } from 'zod';
import { DeskRole } from '../contract/operations';

export const GATEWAY_PREFIX = '/desk/';
export const GATEWAY_PATHS = {
  hello: '/desk/v1/hello',
  enrol: '/desk/v1/enrol',
  events: '/desk/v1/events',
  /** Followed by the channel, e.g. `/desk/v1/ops/quote:run`. */
  ops: '/desk/v1/ops/',
} as const;

export const EnrolRequest = z.strictObject({
  code: z.string().min(1).max(64),
  device_name: z.string().trim().min(1).max(80),
});
export type EnrolRequest = z.output<typeof EnrolRequest>;

export const EnrolResponse = z.object({
  token: z.string(),
  device_id: z.string(),
  user: z.string(),
  role: DeskRole,
});
export type EnrolResponse = z.output<typeof EnrolResponse>;

export const HelloResponse = z.object({ server: z.literal('ratedesk'), version: z.string() });

/** The envelope of every gateway answer but hello and enrol's success: the same as IPC's DeskResult. */
export const Envelope = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);

/** A comment line this often keeps proxies and the desk's own idle check from closing a quiet stream. */
export const SSE_KEEPALIVE_MS = 15_000;

/**
 * A JSON body has no `undefined`: `null` stands for "no input" (an operation that takes none, or whose input
 * may be left out), and the gateway hands the operation `undefined` for it, as IPC does.
 */
export function inputToBody(raw: unknown): string {
  return JSON.stringify(raw === undefined ? null : raw);
}

export function bodyToInput(parsed: unknown): unknown {
  return parsed === null ? undefined : parsed;
}

/** One server-sent event: `event:` line, one `data:` line of JSON (JSON never holds a raw newline). */
export function sseFrame(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}
