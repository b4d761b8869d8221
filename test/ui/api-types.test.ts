import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateApiTypes, SCHEMA_FILE } from '../../build/ui-api-types-lib.mjs';
import { buildApp } from '../helpers/modules.js';
import { openDeps } from '../../server/deps.js';
import { ROOT } from './support/build.js';

/** The UI's API types are generated from /openapi.json: a schema change must come with `npm run ui:types`. */
describe('app/ui/src/api/schema.d.ts', () => {
  it('matches the server /openapi.json (run `npm run ui:types` when it does not)', async () => {
    const fresh = await generateApiTypes({ buildApp, openDeps });
    const committed = readFileSync(join(ROOT, SCHEMA_FILE), 'utf8');
    // One clear message instead of a 500 kB diff.
    if (fresh !== committed) {
      const a = committed.split('\n');
      const b = fresh.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(`${SCHEMA_FILE} is out of date (first difference at line ${line + 1}: ${JSON.stringify(a[line])} vs ${JSON.stringify(b[line])}); run \`npm run ui:types\``);
    }
  });
});
