import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/build.js';
import { cycles, sourceFiles, valueImports } from '../helpers/import-graph.js';

const SRC = join(ROOT, 'app/ui/src');

/**
 * The UI's modules import one another without a circle carrying values (issue 22): the layout,
 * the route table and the login once did (Layout → routes → login → Layout), so which of them
 * was evaluated first decided whether NAV or HOME existed yet.
 */
describe('app/ui/src imports', () => {
  it('have no circle through run-time values', () => {
    const graph = new Map(sourceFiles(SRC).map((file) => [file, valueImports(file)]));
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles(graph).map((group) => group.map((file) => relative(SRC, file)))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', ['a']]]))).toEqual([['a']]);
  });
});
