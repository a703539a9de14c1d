// history:curl's command (#21): a /v1-shaped shipment goes to /v1/rates with a body /v1 accepts; one with
// COD, several places or a ship date goes to /ext/v1/rates with a body the extension accepts.
import { describe, expect, it } from 'vitest';
import { QuoteRequest, type QuoteShipment } from '../../../../core/contract/quote-ext';
import { Shipment } from '../../../../core/contract/v1';
import { curlCommand } from '../../../../core/operations/curl';

const BASE: QuoteShipment = QuoteRequest.parse({
  from: { city: 'Москва' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
});

/** The URL and the JSON body of a command (the body is the last single-quoted argument). */
function parts(cmd: string): { url: string; body: unknown } {
  const url = /curl -sS -X POST '([^']+)'/.exec(cmd)?.[1] ?? '';
  const raw = /--data-raw '(.*)'$/s.exec(cmd)?.[1] ?? '';
  return { url, body: JSON.parse(raw.replace(/'\\''/g, "'")) };
}

describe('curlCommand', () => {
  it('a /v1-shaped shipment: POST /v1/rates with a Shipment (no cod_kopecks)', () => {
    const { url, body } = parts(curlCommand('http://127.0.0.1:8787', BASE));
    expect(url).toBe('http://127.0.0.1:8787/v1/rates');
    expect(Shipment.safeParse(body).success).toBe(true);
    expect(body).not.toHaveProperty('cod_kopecks');
  });

  it.each([
    ['cash on delivery', { cod_kopecks: 100_000 }],
    ['a ship date', { ship_date: '2031-03-05' }],
    ['several places', { parcel: undefined, places: [{ ...BASE.parcel!, count: 2 }] }],
  ])('%s: POST /ext/v1/rates with a QuoteRequest', (_what, extra) => {
    const shipment = QuoteRequest.parse({ ...BASE, ...extra });
    const { url, body } = parts(curlCommand('http://127.0.0.1:8787', shipment));
    expect(url).toBe('http://127.0.0.1:8787/ext/v1/rates');
    expect(QuoteRequest.parse(body)).toEqual(shipment);
    expect(Shipment.safeParse(body).success).toBe(false);
  });
});
