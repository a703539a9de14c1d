// Steps several quote specs share: fill the form the way a clerk does, quote, read the table.
import type { Locator, Page } from '@playwright/test';
import type { ShipmentInput } from '../../core/contract/v1';
import { expect, type Desk } from './fixtures';

export const MOSCOW_KAZAN: ShipmentInput = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
};

/** Москва (101000) → Казань (420000), 1,2 kg, box M 30×20×10, typed straight into the fields. */
export async function fillMoscowKazan(page: Page, weight = '1,2'): Promise<void> {
  await page.getByTestId('from-city').fill('Москва');
  await page.getByTestId('from-postal').fill('101000');
  await page.getByTestId('to-city').fill('Казань');
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('weight').fill(weight);
  await page.getByTestId('box-preset').selectOption({ label: 'M 30×20×10' });
}

/** Enter in the weight field, then wait for the run to end. */
export async function quote(page: Page): Promise<void> {
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
}

export async function prices(rows: Locator): Promise<number[]> {
  return rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-price'))));
}

export function ascending(xs: readonly number[]): boolean {
  return xs.every((x, i) => i === 0 || xs[i - 1]! <= x);
}

/** The same quote from the test side (real rates of the sandbox carriers, without touching the page). */
export function quoteInCore(desk: Desk, shipment: ShipmentInput = MOSCOW_KAZAN) {
  return desk.call('quote:run', { quoteKey: 'test-side', shipment });
}
