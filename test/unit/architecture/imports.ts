import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";

/** One import of a source file: the file it names, and whether only types cross it. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^;]*?\sfrom\s+)?["'](\.[^"']+)["']/gms;
const DYNAMIC = /import\(\s*["'](\.[^"']+)["']\s*\)/g;

/** Every `.ts` file under `root`, relative to it. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith(".ts")) files.push(relative(root, path));
    }
  };
  walk(root);
  return files.sort();
}

/** The relative imports of every file under `root` (static and dynamic), by file. */
export function importEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(join(root, file), "utf8");
    const target = (spec: string) => normalize(join(dirname(file), spec.replace(/\.js$/, ".ts")));
    for (const m of text.matchAll(STATIC)) edges.push({ from: file, to: target(m[3]!), typeOnly: !!m[2] });
    for (const m of text.matchAll(DYNAMIC)) edges.push({ from: file, to: target(m[1]!), typeOnly: false });
  }
  return edges;
}

/** A file's room: its first folder under src/, or `(root)` for src/*.ts. */
export function roomOf(file: string): string {
  const parts = file.split(sep);
  return parts.length === 1 ? "(root)" : parts[0]!;
}

/** A cycle of the graph (its nodes in order, the first repeated at the end), or undefined. */
export function findCycle(edges: ReadonlyArray<readonly [string, string]>): string[] | undefined {
  const next = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    if (a === b) continue;
    let set = next.get(a);
    if (!set) next.set(a, (set = new Set()));
    set.add(b);
  }
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, "open");
    path.push(node);
    for (const to of [...(next.get(node) ?? [])].sort()) {
      if (state.get(to) === "open") return [...path.slice(path.indexOf(to)), to];
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of [...next.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return undefined;
}
