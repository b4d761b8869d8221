import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

/**
 * docs/platform-operations.md lists the platform's POS, inventory and waiter operations and says
 * which this server serves (issue 26). This keeps the list true: a "yes" row is a route of the
 * OpenAPI document (under the path its note names, when it says "as `…`"), a "no" row is not.
 */
interface Row {
  api: 'pos' | 'waiter';
  method: string;
  path: string;
  served: boolean;
}

const DOC = new URL('../../../docs/platform-operations.md', import.meta.url);

function rowsOf(text: string): Row[] {
  const rows: Row[] = [];
  let api: Row['api'] | null = null;
  for (const line of text.split('\n')) {
    const heading = /^## (pos|waiter): /.exec(line);
    if (heading) api = heading[1] as Row['api'];
    const row = /^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)` \| (yes|\*\*no\*\*) \| (.*) \|$/.exec(line);
    if (!row || !api) continue;
    const alias = /^as `(\/[^`]*)`/.exec(row[4]);
    rows.push({ api, method: row[1], path: alias ? alias[1] : row[2], served: row[3] === 'yes' });
  }
  return rows;
}

/** `/stores/{store_id}/menus` and `/stores/{id}/menus` are one path: parameter names do not count. */
const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

describe('docs/platform-operations.md', () => {
  let t: TestApp;
  let served: Set<string>;
  beforeAll(async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    served = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => {
        const m = /^\/\{contract_id\}\/(pos|waiter)(\/.*)$/.exec(path);
        return m ? Object.keys(ops).map((method) => `${m[1]} ${method.toUpperCase()} ${shape(m[2])}`) : [];
      }),
    );
  });
  afterAll(() => t.close());

  it('says yes exactly for the operations the server serves', () => {
    const rows = rowsOf(readFileSync(DOC, 'utf8'));
    expect(rows.length).toBeGreaterThan(150);
    const wrong = rows
      .filter((r) => served.has(`${r.api} ${r.method} ${shape(r.path)}`) !== r.served)
      .map((r) => `${r.api} ${r.method} ${r.path}: the list says ${r.served ? 'served' : 'not served'}`);
    expect(wrong).toEqual([]);
  });

  it('gives its count of served operations right', () => {
    const text = readFileSync(DOC, 'utf8');
    const rows = rowsOf(text);
    const count = /\*\*(\d+) of (\d+) served\.\*\*/.exec(text);
    expect(count?.slice(1).map(Number)).toEqual([rows.filter((r) => r.served).length, rows.length]);
  });
});
