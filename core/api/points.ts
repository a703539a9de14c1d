// POST /ext/v1/points (#21) after authentication and rate limiting: the pickup points of a carrier near the
// recipient's town that take this parcel. A lookup in the carrier's cached directory, not a quote: it holds no
// balance and charges nothing (docs/api.md, "Clerk's quote extension"), and an Idempotency-Key is not needed
// (a repeat asks again, at no cost) and is ignored.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PointsQuery, type PointsResponse } from '../contract/points';
import { PointSearchError } from '../points/search';
import type { ApiRuntime } from './runtime';
import { isJsonContentType } from './body';
import { readJsonObject } from './json-body';
import { issuesToDetails } from './rates';
import { sendError, sendJson, type HeaderList } from './respond';

export async function handlePoints(
  rt: ApiRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  headers: HeaderList,
): Promise<void> {
  if (!isJsonContentType(req)) return sendError(res, 'unsupported_media_type', requestId, headers);
  const raw = await readJsonObject(req, res, requestId, headers);
  if (raw === undefined) return;
  const parsed = PointsQuery.safeParse(raw);
  if (!parsed.success) {
    return sendError(res, 'validation_failed', requestId, headers, {
      details: issuesToDetails(parsed.error),
    });
  }
  // A directory fetch nobody will receive stops when the client goes.
  const gone = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) gone.abort(new Error('client disconnected'));
  };
  res.once('close', onClose);
  try {
    let found: PointsResponse;
    try {
      found = await rt.points(parsed.data, gone.signal);
    } catch (error) {
      if (!(error instanceof PointSearchError) || gone.signal.aborted) throw error;
      // A carrier that failed with no earlier copy to serve may answer later: 503 with Retry-After, as /v1
      // says of carriers. Everything else is the query as sent (a carrier without a directory, a town no
      // directory knows): retrying cannot help, so 422, with the reason in `unavailable` as /v1 gives it.
      const unavailable = [{ carrier: parsed.data.carrier, reason: error.message }];
      if (error.kind === 'carrier_error') {
        return sendError(res, 'rates_unavailable', requestId, headers, {
          unavailable,
          headers: { 'Retry-After': '5' },
        });
      }
      return sendError(res, 'shipment_not_served', requestId, headers, { unavailable });
    }
    if (gone.signal.aborted) return;
    sendJson(res, 200, JSON.stringify(found), headers);
  } finally {
    res.off('close', onClose);
  }
}
