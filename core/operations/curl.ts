// "Copy as curl": the /v1 call that repeats a history quote from a terminal. The key is left as the
// $RATEDESK_API_KEY variable: the desk never holds a secret to put there, and a real one must not end up
// in shell history or a pasted chat message.
import { randomUUID } from 'node:crypto';
import { isV1Shaped, type QuoteShipment } from '../contract/quote-ext';

/** POSIX single quotes: nothing inside is special except the quote itself. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A shipment /v1 can carry goes to /v1/rates exactly as before; one with COD, several places or a ship date
 * goes to the extension, POST /ext/v1/rates (#21), which takes the same key.
 */
export function curlCommand(baseUrl: string, shipment: QuoteShipment): string {
  const v1 = isV1Shaped(shipment);
  const { cod_kopecks: _cod, ...v1Body } = shipment;
  // A fresh key per copy: running the pasted command twice replays the first answer instead of paying twice.
  const idempotencyKey = randomUUID();
  return [
    `curl -sS -X POST ${shellQuote(`${baseUrl}${v1 ? '/v1/rates' : '/ext/v1/rates'}`)}`,
    `  -H "Authorization: Bearer $RATEDESK_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -H ${shellQuote(`Idempotency-Key: ${idempotencyKey}`)}`,
    `  --data-raw ${shellQuote(JSON.stringify(v1 ? v1Body : shipment))}`,
  ].join(' \\\n');
}
