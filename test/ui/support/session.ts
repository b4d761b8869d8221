import type { Page } from 'playwright-core';
import type { DemoContract, UiServer } from './server.js';

/**
 * Logs in through the login screen as the contract's demo staff member (S001, every right) and
 * waits for the today screen. With several demo contracts the login offers a contract <select>.
 */
export async function loginAs(page: Page, server: UiServer, contractId = 'demo-retail', credentials?: Partial<Pick<DemoContract, 'staffUsername' | 'staffPassword'>>): Promise<void> {
  const contract = server.contract(contractId);
  await page.goto(`${server.uiUrl}#/login`);
  await page.locator('select[name="contract_id"]').selectOption(contract.contractId);
  await page.locator('input[name="staffCode"]').fill(credentials?.staffUsername ?? contract.staffUsername);
  await page.locator('input[name="password"]').fill(credentials?.staffPassword ?? contract.staffPassword);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/#\/today$/);
}
