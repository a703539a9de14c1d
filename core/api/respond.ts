import type { ServerResponse } from 'node:http';
import { bodyUnread } from './body';
import { lingerOnClose } from './linger';
import { API_ERRORS, type ApiErrorCode } from '../contract/errors';
import type { ErrorResponse, Unavailable } from '../contract/v1';

/**
 * Response headers as a flat [name, value, …] list, built once per request and handed to writeHead as is:
 * objects of headers cost Node per-header work on every response (docs/benchmarks.md).
 */
export type HeaderList = string[];

/** Headers every /v1 response carries, whatever its status. */
export function baseHeaders(requestId: string, sandbox: boolean): HeaderList {
  const list = ['X-Request-Id', requestId, 'Cache-Control', 'no-store', 'X-Content-Type-Options', 'nosniff'];
  if (sandbox) list.push('X-RateDesk-Sandbox', 'true');
  return list;
}

/** A copy of `list` with each of `extra` replacing a header of the same name, or added. */
export function withHeaders(list: HeaderList, extra: Record<string, string>): HeaderList {
  const out = list.slice();
  for (const [name, value] of Object.entries(extra)) {
    const lower = name.toLowerCase();
    let i = 0;
    while (i < out.length && out[i]!.toLowerCase() !== lower) i += 2;
    if (i < out.length) out[i + 1] = value;
    else out.push(name, value);
  }
  return out;
}

/**
 * Sends the response; `headers` is the request's own list and is completed in place. Nothing is sent when the
 * connection was already answered by the parser-error path (core/api/client-error.ts) or is gone.
 */
export function sendJson(res: ServerResponse, status: number, body: string, headers: HeaderList): void {
  if (res.headersSent || (res.socket !== null && !res.socket.writable)) return;
  if (bodyUnread(res.req)) {
    headers.push('Connection', 'close');
    // The client may still be sending: the close that follows this answer lingers (core/api/linger.ts).
    lingerOnClose(res.socket);
  }
  headers.push(
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(body)),
  );
  res.writeHead(status, headers);
  res.end(body);
}

export interface ErrorExtras {
  message?: string;
  details?: Array<{ path: string; message: string }>;
  unavailable?: Unavailable[];
  headers?: Record<string, string>;
}

export function errorBody(code: ApiErrorCode, requestId: string, extras: ErrorExtras = {}): string {
  const body: ErrorResponse = {
    error: {
      code,
      message: extras.message ?? API_ERRORS[code].message,
      request_id: requestId,
      ...(extras.details ? { details: extras.details } : {}),
    },
    ...(extras.unavailable ? { unavailable: extras.unavailable } : {}),
  };
  return JSON.stringify(body);
}

export function sendError(
  res: ServerResponse,
  code: ApiErrorCode,
  requestId: string,
  headers: HeaderList,
  extras: ErrorExtras = {},
): void {
  const extra: Record<string, string> = { ...extras.headers };
  sendJson(res, API_ERRORS[code].status, errorBody(code, requestId, extras), withHeaders(headers, extra));
}
