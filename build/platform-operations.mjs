// `node build/platform-operations.mjs OPENAPI.json`: how many of the platform operations listed in
// docs/platform-operations.md the server whose OpenAPI document is given serves, e.g. an older
// build's `curl http://127.0.0.1:8080/openapi.json`. test/platform/http/platform-operations.test.ts
// reads the list with the same functions and holds its yes/no to this server's document.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OPERATIONS_DOC = fileURLToPath(new URL('../docs/platform-operations.md', import.meta.url));

/** The list's rows: api (pos|waiter), method, the path served (the note's "as `…`" when given), and its yes/no. */
export function operationRows(text) {
  const rows = [];
  let api = null;
  for (const line of text.split('\n')) {
    const heading = /^## (pos|waiter): /.exec(line);
    if (heading) api = heading[1];
    const row = /^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)` \| (yes|\*\*no\*\*) \| (.*) \|$/.exec(line);
    if (!row || !api) continue;
    const alias = /^as `(\/[^`]*)`/.exec(row[4]);
    rows.push({ api, method: row[1], path: alias ? alias[1] : row[2], served: row[3] === 'yes' });
  }
  return rows;
}

/** `/stores/{store_id}/menus` and `/stores/{id}/menus` are one path: parameter names do not count. */
export const operationKey = (api, method, path) => `${api} ${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;

/** The operations an OpenAPI document serves under /{contract_id}/pos and /{contract_id}/waiter, as operationKey strings. */
export function servedOperations(doc) {
  return new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) => {
      const m = /^\/\{contract_id\}\/(pos|waiter)(\/.*)$/.exec(path);
      return m ? Object.keys(ops).map((method) => operationKey(m[1], method, m[2])) : [];
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node build/platform-operations.mjs OPENAPI.json');
    process.exit(2);
  }
  const served = servedOperations(JSON.parse(readFileSync(file, 'utf8')));
  const rows = operationRows(readFileSync(OPERATIONS_DOC, 'utf8'));
  const count = rows.filter((r) => served.has(operationKey(r.api, r.method, r.path))).length;
  console.log(`${count} of ${rows.length} served`);
}
