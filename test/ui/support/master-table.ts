import type { Page } from 'playwright-core';
import type { DemoUi } from './suite.js';

/** Waiting for and reading the generic master screens' table (data-testid="master-table"). */
export function masterTable(ui: DemoUi) {
  /** Waits for the table of the URL's kind and query (data-loaded), not a stale one of the previous URL. */
  const settled = async (page: Page) => {
    const [, kind, q] = /#\/masters\/([^?]+)\??(.*)$/.exec(new URL(page.url()).hash)!;
    const key = `${kind}?${new URLSearchParams(q).toString()}`;
    await page.locator(`[data-testid="master-table"][data-loaded="${key}"][aria-busy="false"]`).waitFor();
  };
  return {
    settled,
    open: async (page: Page, hash: string) => {
      await page.goto(`${ui.server.uiUrl}#${hash}`);
      await settled(page);
    },
    /** The data-id of each row, in the order shown. */
    rowIds: (page: Page) => page.locator('[data-testid="master-table"] tbody tr[data-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
  };
}
