// "Copy as curl": the /v1 call that repeats a history quote from a terminal. The key is left as the
// $RATEDESK_API_KEY variable: the desk never holds a secret to put there, and a real one must not end up
// in shell history or a pasted chat message.
import { randomUUID } from 'node:crypto';
import type { Shipment } from '../contract/v1';

/** POSIX single quotes: nothing inside is special except the quote itself. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(baseUrl: string, shipment: Shipment): string {
  // A fresh key per copy: running the pasted command twice replays the first answer instead of paying twice.
  const idempotencyKey = randomUUID();
  return [
    `curl -sS -X POST ${shellQuote(`${baseUrl}/v1/rates`)}`,
    `  -H "Authorization: Bearer $RATEDESK_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -H ${shellQuote(`Idempotency-Key: ${idempotencyKey}`)}`,
    `  --data-raw ${shellQuote(JSON.stringify(shipment))}`,
  ].join(' \\\n');
}
