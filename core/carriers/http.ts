// The one way adapters talk to carriers: fixed base URLs from settings (never from the request), a size cap,
// no redirects, and the caller's AbortSignal for timeouts.
export const MAX_CARRIER_RESPONSE_BYTES = 1024 * 1024;

export interface CarrierHttpResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was not JSON. */
  json: unknown;
  text: string;
}

export class CarrierHttpError extends Error {}

export async function carrierRequest(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal: AbortSignal },
): Promise<CarrierHttpResponse> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error' });
  } catch (err) {
    if (init.signal.aborted) throw init.signal.reason ?? err;
    throw new CarrierHttpError(`network error: ${(err as Error).cause ? String((err as Error).cause) : (err as Error).message}`);
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_CARRIER_RESPONSE_BYTES) throw new CarrierHttpError('response too large');
  const buf = Buffer.from(await res.arrayBuffer());
  if (buf.length > MAX_CARRIER_RESPONSE_BYTES) throw new CarrierHttpError('response too large');
  const text = buf.toString('utf8');
  let json: unknown;
  try {
    json = text.length ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}
