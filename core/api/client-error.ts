// Answers for what never becomes a request: errors of Node's HTTP parser (malformed request lines, bad chunk
// sizes, Content-Length with Transfer-Encoding, obs-fold, oversized headers), the request timeout, and
// CONNECT. Node's defaults answer these with an empty body (or, for CONNECT, not at all); a client that can
// still read gets the documented envelope with a request_id, then the connection closes.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { API_ERRORS, type ApiErrorCode } from '../contract/errors';
import { newRequestId } from '../util/ids';
import { lingeringClose } from './linger';
import { baseHeaders, errorBody } from './respond';

/** The parser's error code → what the client is told. Anything unlisted is a malformed request (400). */
const PARSER_ERRORS: Readonly<Record<string, ApiErrorCode>> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'payload_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/** A complete HTTP/1.1 error response as one string: status line, the usual headers, the JSON envelope. */
export function rawErrorResponse(
  code: ApiErrorCode,
  sandbox: boolean,
  extraHeaders: Record<string, string> = {},
): string {
  const requestId = newRequestId();
  const status = API_ERRORS[code].status;
  const body = errorBody(code, requestId);
  const headers = baseHeaders(requestId, sandbox);
  headers.push(
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(body)),
    'Connection',
    'close',
  );
  for (const [name, value] of Object.entries(extraHeaders)) headers.push(name, value);
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}\r\n${body}`;
}

/** Node's response in progress on a socket (internal field, present on every Node version we ship). */
function responseInProgress(socket: Duplex): ServerResponse | null {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/** The server's 'clientError' handler. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex, sandbox: boolean): void {
  const s = socket as Socket;
  // A reset peer reads nothing.
  if (err.code === 'ECONNRESET' || !s.writable) {
    s.destroy();
    return;
  }
  const code = PARSER_ERRORS[err.code ?? ''] ?? 'bad_request';
  const answer = (): void => endWith(s, rawErrorResponse(code, sandbox));
  const previous = responseInProgress(s);
  // A pipelined request's malformation can be parsed while the answer to the one before it is still being
  // written, or not yet begun (the handler awaits the store): that answer is finished first, then this one
  // follows it. An earlier request received whole (`req.complete`) is told apart from the request whose own
  // body is the malformed part, which gets this answer at once.
  if (previous && !previous.writableFinished && (previous.headersSent || previous.req.complete)) {
    previous.once('finish', answer);
    setTimeout(() => s.destroy(), 2_000).unref();
    return;
  }
  answer();
}

/**
 * end() makes the socket unwritable at once, so a handler still waiting for this request's body sends nothing
 * after it (sendJson checks). The client may still be sending (a bad chunk mid-body, a slow body's 408): the
 * close lingers so that the answer is not reset, within the bounds of core/api/linger.ts.
 */
function endWith(s: Socket, response: string): void {
  if (!s.writable) {
    s.destroy();
    return;
  }
  s.end(response);
  lingeringClose(s);
}

/** CONNECT: this listener is no proxy. */
export function answerConnect(_req: IncomingMessage, socket: Duplex, sandbox: boolean): void {
  const s = socket as Socket;
  // Detached from the HTTP server: nobody else listens for this socket's errors any more.
  s.on('error', () => s.destroy());
  if (!s.writable) {
    s.destroy();
    return;
  }
  endWith(s, rawErrorResponse('method_not_allowed', sandbox, { Allow: 'GET, POST' }));
}
