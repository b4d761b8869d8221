import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, sourceFiles, valueImports } from './helpers/import-graph.js';

const ROOT = join(import.meta.dirname, '..');

/**
 * The server and the sync module import one another without a circle carrying values (issue 22):
 * server/ imports nothing from sync/ (the composition root, main.ts, hands sync's module in), and
 * within each a feature does not import a sibling that imports it back.
 */
describe('main.ts, server/ and sync/ imports', () => {
  it('have no circle through run-time values', () => {
    const files = [join(ROOT, 'main.ts'), ...sourceFiles(join(ROOT, 'server')), ...sourceFiles(join(ROOT, 'sync'))];
    const graph = new Map(files.map((file) => [file, valueImports(file)]));
    expect(graph.size).toBeGreaterThan(200);
    expect(cycles(graph).map((group) => group.map((file) => relative(ROOT, file)))).toEqual([]);
  });

  it('server/ imports no file of sync/, not even a type', () => {
    const importsSync = (file: string) => /from\s*['"](\.\.\/)+sync\//.test(readFileSync(file, 'utf8'));
    expect(sourceFiles(join(ROOT, 'server')).filter(importsSync).map((file) => relative(ROOT, file))).toEqual([]);
  });
});
