/**
 * The layout rules of src/ that the compiler does not keep: no import cycle (type-only
 * imports count: they tie files together for a reader as much as value imports do), and
 * migrations frozen — a migration imports only other migration files and the types of the
 * database handle, so a later change of live code cannot change what an old migration does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');
const MIGRATIONS = path.join(SRC, 'store', 'migrations');
/** What a migration may import from outside its folder: types of the database handle. */
const MIGRATION_MAY_IMPORT = new Set(['store/sql/db.ts', 'store/sql/sql-value.ts']);

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface Import {
  target: string;
  typeOnly: boolean;
}

/** The relative imports of a file (static, dynamic and `export … from`), resolved to .ts files. */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: Import[] = [];
  // A statement starts a line; `[^'";]*?` stops at the first string, so a comment that
  // says "import" is not read as one.
  const statements =
    /^\s*(import|export)(\s+type)?[^'";]*?from\s*'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm;
  for (const m of text.matchAll(statements)) {
    const spec = m[3] ?? m[4] ?? '';
    const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
    if (fs.existsSync(target)) found.push({ target, typeOnly: m[2] !== undefined });
  }
  return found;
}

/** The cycles of a graph (strongly connected parts of more than one file, or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part);
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

const files = tsFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f).map((i) => i.target)]));
const rel = (f: string): string => path.relative(SRC, f);

describe('the import graph of src/', () => {
  it('reads every file and finds their imports', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(graph.get(path.join(SRC, 'app.ts'))!.length).toBeGreaterThan(3);
  });

  it('has no import cycle', () => {
    expect(cycles(graph).map((part) => part.map(rel).sort())).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const looped = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(looped).map((p) => p.sort())).toEqual([['a', 'b', 'c']]);
  });

  it('keeps migrations frozen: they import only migrations and the types of the database handle', () => {
    const outside = files
      .filter((f) => f.startsWith(MIGRATIONS + path.sep))
      .flatMap((f) => importsOf(f).map((i) => ({ from: rel(f), to: rel(i.target), typeOnly: i.typeOnly })))
      .filter((i) => !i.to.startsWith('store/migrations/'))
      .filter((i) => !(i.typeOnly && MIGRATION_MAY_IMPORT.has(i.to)));
    expect(outside).toEqual([]);
  });
});
