// `npm run ui:types`: compiles the server to a scratch folder, then writes the UI's API types
// (app/ui/src/api/schema.d.ts) from its /openapi.json. Commit the result: test/ui/api-types.test.ts
// fails when the committed file no longer matches the server.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateApiTypes, SCHEMA_FILE } from './ui-api-types-lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside node_modules so the compiled server resolves its packages, and git ignores it.
const scratch = 'node_modules/.cache/pos-ui-types-dist';
try {
  execFileSync(process.execPath, [join(root, 'build/compile.mjs'), '--out-dir', scratch], { cwd: root, stdio: 'inherit' });
  const load = (file) => import(pathToFileURL(join(root, scratch, file)).href);
  const { buildApp } = await load('server/app.js');
  const { openDeps } = await load('server/deps.js');
  // The API as main.js serves it: with the sync module's resources (webhooks, sync status).
  const { syncModule } = await load('sync/module.js');
  const text = await generateApiTypes({ buildApp: (deps) => buildApp(deps, [syncModule]), openDeps });
  writeFileSync(join(root, SCHEMA_FILE), text);
  console.log(`ui:types: wrote ${SCHEMA_FILE} (${text.length} characters)`);
} finally {
  rmSync(join(root, scratch), { recursive: true, force: true });
}
