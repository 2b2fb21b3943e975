// The rejecting version with one change undone, as surgery.ts compiles it: the documents handed to the
// compiler (without their $schema), for a change at `path` found between the nodes at `site`.
import type { SchemaCompiler } from "../../../../src/catalog/compiler.js";
import { child, type Loc } from "../../../../src/diff/document.js";
import { engineSide, loadSides } from "../../../../src/diff/sides.js";
import type { Change } from "../../../../src/diff/vocabulary.js";
import type { ProofContext } from "../../../../src/diff/witness/proof-context.js";
import { variantsOf } from "../../../../src/diff/witness/surgery.js";

const D = "https://json-schema.org/draft/2020-12/schema";
type Direction = "backward" | "forward";

export interface Case {
  readonly path: string;
  readonly direction: Direction;
  /** Where the change was found, by keys from each root (NEW's defaults to OLD's). */
  readonly old?: readonly string[];
  readonly new?: readonly string[];
  /** Replaces NEW's site node, as the merged nodes made for proofs do. */
  readonly fake?: (loc: Loc) => Loc;
}

/** The documents compiled for the variants of one change, and how many variants compiled. */
export function undone(old: object, next: object, how: Case): { variants: number; compiled: unknown[] } {
  const loaded = loadSides({ $schema: D, ...old }, { $schema: D, ...next }, {});
  const real = loaded.compiler;
  const compiled: unknown[] = [];
  const compiler = {
    compileVersion: (input: Parameters<SchemaCompiler["compileVersion"]>[0]) => {
      const { $schema: _dialect, ...json } = input.json as Record<string, unknown>;
      compiled.push(json);
      return real.compileVersion(input);
    },
  } as unknown as SchemaCompiler;
  const context: ProofContext = {
    model: loaded.model,
    compiler,
    old: engineSide(loaded.old, real),
    new: engineSide(loaded.new, real),
  };
  const down = (root: Loc, keys: readonly string[]): Loc =>
    keys.reduce((loc, key) => child(loc, (loc.node as Record<string, unknown>)[key], key), root);
  const oldSite = down(loaded.old.root, how.old ?? []);
  const newSite = how.fake ? how.fake(loaded.new.root) : down(loaded.new.root, how.new ?? how.old ?? []);
  const change: Change = {
    kind: "maximum-decreased",
    path: how.path,
    backward: "breaks",
    forward: "breaks",
    reason: "r",
    site: { old: oldSite, new: newSite },
  };
  const cache = new Map();
  variantsOf(change, how.direction, context, cache);
  // A second call with the same cache compiles nothing again.
  const variants = variantsOf(change, how.direction, context, cache).length;
  return { variants, compiled };
}
