// Summarizes a V8 .cpuprofile (written by run.mjs --cpu-prof): where the busy time went,
// by package (self and inclusive) and by function. Also runnable on its own:
//   node test/bench/profile.mjs test/bench/results/profiles/categories-ours.cpuprofile [top]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** "fastify", "zod", "ours: platform/http/auth.js", "node:internal", "(garbage collector)"... */
function areaOf(frame) {
  if (SPECIAL.has(frame.functionName)) return frame.functionName;
  const url = frame.url ?? '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/dist\/server\/(.+)$/.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  if (/\/test\/bench\//.test(url)) return 'bench harness';
  if (url.startsWith('node:') || url === '') return frame.functionName.startsWith('(') ? frame.functionName : 'node internals / native';
  return url.replace(/^file:\/\//, '');
}

function label(frame) {
  const url = (frame.url ?? '').replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/').replace(/^file:\/\//, '');
  return `${frame.functionName || '(anonymous)'} ${url ? `${url}:${frame.lineNumber + 1}` : ''}`.trim();
}

export function summarizeProfile(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const selfFn = new Map();
  const selfArea = new Map();
  const inclFn = new Map();
  const inclArea = new Map();
  let busy = 0;
  let idle = 0;
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);

  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0; // the delta up to the next sample is this sample's time
    const node = byId.get(id);
    if (node.callFrame.functionName === '(idle)') {
      idle += us;
      return;
    }
    busy += us;
    add(selfFn, label(node.callFrame), us);
    add(selfArea, areaOf(node.callFrame), us);
    const seenFn = new Set();
    const seenArea = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (frame.functionName === '(root)') continue;
      seenFn.add(label(frame));
      seenArea.add(areaOf(frame));
    }
    for (const key of seenFn) add(inclFn, key, us);
    for (const key of seenArea) add(inclArea, key, us);
  });

  const pct = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const list = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${pct(us)}  ${k}`)
      .join('\n');
  return [
    `profile ${file}`,
    `busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s (percentages are of busy time)`,
    `self time by area:\n${list(selfArea, top)}`,
    `inclusive time by area (stack contains it):\n${list(inclArea, top)}`,
    `self time by function:\n${list(selfFn, top)}`,
    `inclusive time by function:\n${list(inclFn, top * 2)}`,
  ].join('\n\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node test/bench/profile.mjs <file.cpuprofile> [top]');
    process.exit(1);
  }
  console.log(summarizeProfile(file, top ? Number(top) : 15));
}
