// End-to-end tests. Browser: Debian's Chromium (/usr/bin/chromium or $CHROMIUM_PATH) — Playwright never
// downloads one here (design.md "Installing"). The built renderer (npm run build:renderer) is served on
// 127.0.0.1; each test gets a real core and real desk handlers behind window.ratedesk (test/e2e/fixtures.ts).
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.RATEDESK_E2E_PORT ?? 4319);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  // Overridable so two runs on one machine do not delete each other's traces.
  outputDir: process.env.RATEDESK_E2E_OUTPUT ?? 'test-results/playwright',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testMatch: '*.spec.ts',
      testIgnore: '**/electron/**',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
    {
      // Playwright's _electron: these specs launch the app themselves and skip where Electron is absent.
      name: 'electron',
      testDir: 'test/e2e/electron',
      testMatch: '**/*.spec.ts',
    },
  ],
  webServer: {
    command: `node scripts/serve-static.mjs dist/renderer ${PORT}`,
    url: `http://127.0.0.1:${PORT}/index.html`,
    reuseExistingServer: !process.env.CI,
    timeout: 15_000,
    stdout: 'ignore',
  },
});
