import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS_DOC, operationKey, operationRows, servedOperations } from '../../../build/platform-operations.mjs';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

/**
 * docs/platform-operations.md lists the platform's POS, inventory and waiter operations and says
 * which this server serves (issue 26). This keeps the list true: a "yes" row is a route of the
 * OpenAPI document (under the path its note names, when it says "as `…`"), a "no" row is not.
 */
describe('docs/platform-operations.md', () => {
  let t: TestApp;
  let served: Set<string>;
  const text = readFileSync(OPERATIONS_DOC, 'utf8');
  const rows = operationRows(text);
  beforeAll(async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    served = servedOperations(res.json());
  });
  afterAll(() => t.close());

  it('says yes exactly for the operations the server serves', () => {
    expect(rows.length).toBeGreaterThan(150);
    const wrong = rows
      .filter((r) => served.has(operationKey(r.api, r.method, r.path)) !== r.served)
      .map((r) => `${r.api} ${r.method} ${r.path}: the list says ${r.served ? 'served' : 'not served'}`);
    expect(wrong).toEqual([]);
  });

  it('gives its count of served operations right', () => {
    const count = /\*\*(\d+) of (\d+) served\.\*\*/.exec(text);
    expect(count?.slice(1).map(Number)).toEqual([rows.filter((r) => r.served).length, rows.length]);
  });
});
