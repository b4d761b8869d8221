import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/**
 * Ticket purchases (回数券, the platform's GET /transactions/product_sets and POST
 * /transactions/consume_product_sets) are not served (docs/decisions.md): their paths answer the
 * 404 of a path this server does not have, never the item route's 400 about a transaction id.
 */
describe('/transactions/product_sets (not served)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await makeTestApp()));
  afterAll(() => t.close());

  it('answers 404 problems for the list, an item and the consumption, as a platform client sends them', async () => {
    for (const [method, path] of [
      ['GET', '/transactions/product_sets'],
      ['GET', '/transactions/product_sets?customer_id=1&status=0&with_products=all'],
      ['GET', '/transactions/product_sets/67890?with_products=all&with_option_products=all'],
      ['POST', '/transactions/consume_product_sets'],
    ] as const) {
      const res = await t.api(method, path, method === 'POST' ? {} : undefined);
      expect(problem(res, 404), `${method} ${path}`).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: `no route ${method} /test-contract/pos${path.split('?')[0]}`,
      });
    }
  });

  it('leaves the transaction item route as it was', async () => {
    expect(problem(await t.api('GET', '/transactions/999999'), 404).detail).toBe('[transaction_id] transaction 999999 does not exist');
    expect(problem(await t.api('GET', '/transactions/12a'), 400).detail).toBe('[transaction_id] must be 1 to 9 digits');
  });
});
