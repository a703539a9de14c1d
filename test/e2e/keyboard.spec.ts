// Keyboard-first: Ctrl+K, Tab order, Enter, ↑/↓, Ctrl+C, Esc, the F1 / ? overlay, Alt+digit screens.
import { expect, openApp, screenshot, test } from './fixtures';

test('keyboard: the whole quote without the mouse', async ({ page }) => {
  await openApp(page);
  // Ctrl+K from anywhere focuses "Откуда".
  await page.getByTestId('weight').focus();
  await page.keyboard.press('Control+K');
  await expect(page.getByTestId('from-city')).toBeFocused();

  // Type, pick with Enter (the cursor moves on), Tab along the reading order.
  await page.keyboard.type('Моск');
  await expect(page.getByTestId('from-suggestions').getByRole('option').first()).toContainText('Москва');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  // #17: a pick moves the cursor to the next field, "Куда".
  await expect(page.getByTestId('to-city')).toBeFocused();
  await page.keyboard.type('Санкт');
  await expect(page.getByTestId('to-suggestions').getByRole('option').first()).toContainText(
    'Санкт-Петербург',
  );
  await page.keyboard.press('Tab'); // Tab takes the highlighted suggestion and moves on
  await expect(page.getByTestId('to-city')).toHaveValue('Санкт-Петербург');
  await expect(page.getByTestId('to-postal')).toBeFocused();
  await expect(page.getByTestId('to-postal')).toHaveValue(/^19\d{4}$/);
  // ⇄ is out of the Tab order (#17: Alt+S swaps).
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('weight')).toBeFocused();
  await page.keyboard.type('2,5');
  for (const side of ['length', 'width', 'height']) {
    await page.keyboard.press('Tab');
    await expect(page.getByTestId(side)).toBeFocused();
    await page.keyboard.type('20');
  }
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');

  // ↓/↑ move the selection through the results; Ctrl+C copies the selected one as text.
  const rows = page.getByTestId('rate-row');
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('ArrowUp');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Control+C');
  await expect(page.getByTestId('toast').last()).toHaveText(/Вариант скопирован/);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const firstRowText = await rows.nth(0).locator('td').nth(1).innerText();
  // A sandbox price carries its marker in the copied text (issue #9), before the route.
  expect(copied).toMatch(/^\[ПЕСОЧНИЦА — цена не настоящая\] Москва → Санкт-Петербург: /);
  expect(copied).toContain(firstRowText);
  expect(copied).toMatch(/\d,\d{2}\u00a0₽$/);
  await screenshot(page, 'quote-selected-light');

  // ⇄ swaps from and to.
  await page.getByTestId('swap').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('from-city')).toHaveValue('Санкт-Петербург');
  await expect(page.getByTestId('to-city')).toHaveValue('Москва');

  // F1 opens the shortcuts overlay (focus trapped inside); Esc closes it without clearing the form.
  await page.keyboard.press('F1');
  const overlay = page.getByTestId('shortcuts');
  await expect(overlay).toBeVisible();
  await expect(overlay).toContainText('Горячие клавиши');
  await screenshot(page, 'shortcuts-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'shortcuts-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
  await expect(page.getByTestId('from-city')).toHaveValue('Санкт-Петербург');

  // "?" outside a text field opens it too.
  await page.locator('body').click({ position: { x: 5, y: 780 } });
  await page.keyboard.press('?');
  await expect(overlay).toBeVisible();
  await page.keyboard.press('Escape');

  // Esc first leaves the selected row (issue #9: one press never wipes the form behind it)…
  await page.keyboard.press('Escape');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByTestId('from-city')).toHaveValue('Санкт-Петербург');
  // …the next one clears the form and the results, and puts the cursor back in "Откуда".
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('from-city')).toHaveValue('');
  await expect(page.getByTestId('weight')).toHaveValue('');
  await expect(page.getByTestId('quote-empty')).toBeVisible();
  await expect(page.getByTestId('from-city')).toBeFocused();

  // Alt+2 → History, Ctrl+K → back to the quote with the cursor in "Откуда".
  await page.keyboard.press('Alt+2');
  await expect(page.getByTestId('nav-history')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Control+K');
  await expect(page.getByTestId('nav-quote')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('from-city')).toBeFocused();
});
