import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startUiServer, type UiServer } from './server.js';

/** The `serve --demo` server and the browser a browser test file drives (set once its beforeAll has run). */
export interface DemoUi {
  server: UiServer;
  browser: Browser;
}

/**
 * Called inside a file's describe: starts `serve --demo` and a browser before its tests (the
 * first start may build dist/ and take long, hence the timeout), then `prepare` sets the file's
 * scene through the API; both are stopped after the tests.
 */
export function useDemoUi(prepare?: () => Promise<void>): DemoUi {
  const ui = {} as DemoUi;
  beforeAll(async () => {
    ui.server = await startUiServer();
    ui.browser = await launchBrowser();
    await prepare?.();
  }, 240_000);
  afterAll(async () => {
    await ui.browser?.close();
    await ui.server?.stop();
  });
  return ui;
}
