// The import graph of a source folder, read with the TypeScript parser so that multi-line imports,
// `export … from` and `import type` are told apart exactly. An edge is a runtime edge when the
// statement survives compilation under `verbatimModuleSyntax` (everything but `import type` and
// `export type`): `import { type A } from` still loads its module, so it counts as runtime too.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly runtime: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Edges between files under `root` only, named relative to `root` (`witness/prove.ts`). */
export function importEdges(root: string): ImportEdge[] {
  const base = resolve(root);
  const files = new Set(tsFiles(base));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      let specifier: ts.Expression | undefined;
      let typeOnly = false;
      if (ts.isImportDeclaration(statement)) {
        specifier = statement.moduleSpecifier;
        typeOnly = statement.importClause?.isTypeOnly ?? false;
      } else if (ts.isExportDeclaration(statement)) {
        specifier = statement.moduleSpecifier;
        typeOnly = statement.isTypeOnly;
      }
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts"));
      if (!files.has(target)) continue;
      edges.push({ from: relative(base, file), to: relative(base, target), runtime: !typeOnly });
    }
  }
  return edges;
}

/** One cycle of the graph as a path that ends where it starts (`a.ts → b.ts → a.ts`), or undefined. */
export function findCycle(edges: readonly ImportEdge[]): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (node: string): string[] | undefined => {
    if (onPath.has(node)) return [...path.slice(path.indexOf(node)), node];
    if (done.has(node)) return undefined;
    path.push(node);
    onPath.add(node);
    for (const to of next.get(node) ?? []) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(node);
    done.add(node);
    return undefined;
  };
  for (const node of [...next.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The files that lie on some cycle (strongly connected components of more than one file), sorted. */
export function filesOnCycles(edges: readonly ImportEdge[]): string[] {
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const node = stack.pop()!;
      for (const e of edges) {
        if (e.from !== node || seen.has(e.to)) continue;
        if (e.to === to) return true;
        seen.add(e.to);
        stack.push(e.to);
      }
    }
    return false;
  };
  return nodes.filter((n) => reaches(n, n)).sort();
}
