import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/build.js';

const SRC = join(ROOT, 'app/ui/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `./Layout` from a file → the file it names (`.ts`, `.tsx` or a folder's index); null for packages and CSS. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(candidate)) return candidate;
  return null;
}

/**
 * The modules a file needs at run time: its imports and re-exports, leaving out `import type`,
 * `export type … from` and imports whose every name is a type (the compiler erases those, so a
 * circle made of them carries no value).
 */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const named = statement.exportClause;
      if (!(named && ts.isNamedExports(named) && named.elements.every((e) => e.isTypeOnly))) specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier)) {
      const target = resolveImport(file, specifier.text);
      if (target) found.push(target);
    }
  }
  return found;
}

/** The strongly connected groups of more than one module (or a module importing itself): Tarjan's algorithm. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)?.includes(node)) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return groups;
}

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
