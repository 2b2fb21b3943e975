import type { SchemaCompiler, SchemaDocument, Validator } from "../../catalog/compiler.js";
import type { Deadline } from "../deadline.js";
import type { Dialect } from "../dialect.js";
import type { Loc } from "../document.js";
import type { Model } from "../model.js";

/** One version as the engine compiles it: its document, where it lives, what it references. */
export interface EngineSide {
  readonly root: Loc;
  readonly uri: string;
  readonly name: string;
  readonly dialect: Dialect;
  readonly refs: readonly SchemaDocument[];
  readonly validate: Validator;
}

/** What a proof (prove.ts) and the undoing of a change (surgery.ts) both read. */
export interface ProofContext {
  readonly model: Model;
  readonly compiler: SchemaCompiler;
  readonly old: EngineSide;
  readonly new: EngineSide;
  /** The comparison's time budget; none when absent. */
  readonly deadline?: Pick<Deadline, "check">;
}
