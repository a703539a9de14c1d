// Company mode end to end (#20), the harness's smoke test: a desk in local mode joins the test's company
// server with an enrolment code through the page's own window.ratedesk (the router, as Electron's IPC), a
// quote made on the Quote screen is the server's, and History lists it with its author. The screens of
// company mode (sign-in, banner, warehouses) have their own specs.
import type { DeskApi } from '../../core/desk/contract';
import { expect, openApp, test } from './fixtures';
import { fillMoscowKazan, quote } from './quote-helpers';

test.use({ deskOptions: { company: { join: false } } });

type PageWindow = { ratedesk: DeskApi };

test('company mode: join with a code, a quote on the server, History names its author', async ({
  page,
  desk,
}) => {
  const company = desk.company!;
  const code = await company.userWithCode('Анна', 'clerk');
  await openApp(page, 'quote');

  const probed = await page.evaluate(
    (url) => (window as unknown as PageWindow).ratedesk.company.probe({ url }),
    company.url,
  );
  expect(probed).toMatchObject({ ok: true, value: { fingerprint: company.fingerprint, trusted: false } });
  const joined = await page.evaluate((a) => (window as unknown as PageWindow).ratedesk.company.join(a), {
    url: company.url,
    code,
    device_name: 'Склад, касса 1',
    fingerprint: company.fingerprint,
  });
  expect(joined).toMatchObject({ ok: true, value: { mode: 'company', user: 'Анна', role: 'clerk' } });
  await expect.poll(async () => (await desk.call('company:status')).connection).toBe('online');

  await page.reload();
  await openApp(page, 'quote');
  await fillMoscowKazan(page);
  await quote(page);
  await expect(page.getByTestId('rate-row').first()).toBeVisible();

  // The quote is the company server's, with its author; the desk's own data folder got nothing.
  expect(await company.call('history:search', {})).toEqual([
    expect.objectContaining({ author: 'Анна', from_city: 'Москва', to_city: 'Казань' }),
  ]);
  expect(await desk.service.store.quotes.search('')).toEqual([]);

  await openApp(page, 'history');
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  const listed = await page.evaluate(() => (window as unknown as PageWindow).ratedesk.history.search({}));
  expect(listed).toMatchObject({ ok: true, value: [{ author: 'Анна' }] });
});
