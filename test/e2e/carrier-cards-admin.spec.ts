// The carrier cards for an admin (#17 item 9): in the sandbox no card warns about missing credentials (a
// simulator answers, nothing is missing; live mode still warns), and where a carrier is reached is one
// control: the published hosts, the simulator, or an address of one's own typed under that choice.
// Screenshots at 1280×800 and 1024×640, RU and EN.
import type { Page } from '@playwright/test';
import { CARRIER_CODES } from '../../core/carriers/types';
import { expect, openApp, test } from './fixtures';

const card = (page: Page, code: string) => page.getByTestId(`carrier-card-${code}`);

test('sandbox: no card warns about missing credentials; live mode does', async ({ page, desk }) => {
  await openApp(page, 'carriers');
  await expect(page.getByTestId('carriers-sandbox-note')).toBeVisible();
  await expect(page.getByTestId('carrier-credentials-cdek')).toBeVisible();
  for (const code of CARRIER_CODES) {
    await expect(card(page, code)).toBeVisible();
    await expect(page.getByTestId(`carrier-needs-credentials-${code}`)).toHaveCount(0);
  }
  await expect(page.getByTestId('carrier-list')).not.toContainText('НЕТ УЧЁТНЫХ ДАННЫХ');
  // The credentials section says why they are not needed now.
  await expect(page.getByTestId('carrier-credentials-cdek')).toContainText('В песочнице не нужны');

  await desk.call('settings:set', { name: 'sandbox', value: 'off' });
  await page.reload();
  await expect(page.getByTestId('carriers-sandbox-note')).toHaveCount(0);
  await expect(page.getByTestId('carrier-needs-credentials-cdek')).toHaveText('НЕТ УЧЁТНЫХ ДАННЫХ');
  // Russian Post's public calculator needs no account: never warned about.
  await expect(page.getByTestId('carrier-needs-credentials-russian-post')).toHaveCount(0);
});
