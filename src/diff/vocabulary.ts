import type { SchemaCompiler } from "../catalog/compiler.js";
import type { Dialect } from "./dialect.js";
import type { Loc } from "./document.js";
import type { ChangeKind } from "./kinds.js";

/**
 * `strict` (the schema registries' rule): an object that is open for a key may already receive that key
 * with any value. `lenient` (the article's rule): producers only send the properties their version
 * declares, so adding an optional property to an open object is backward compatible.
 */
export type Policy = "strict" | "lenient";

/** `undecided` means structure alone cannot tell; it never counts as compatible. */
export type Verdict = "ok" | "breaks" | "undecided";

export type Compatibility = "FULL" | "BACKWARD" | "FORWARD" | "NONE";

export type Bump = "none" | "patch" | "minor" | "major";

/** One difference between two schema versions, judged in both directions. */
export interface Change {
  readonly kind: ChangeKind;
  /**
   * JSON Pointer to the keyword: into NEW for what NEW has, into OLD for what only OLD had. Through a
   * `$ref` it points where the referenced schema lives. External documents are prefixed `URI#`.
   */
  readonly path: string;
  /** Can a document valid under OLD fail NEW because of this change? */
  readonly backward: Verdict;
  /** Can a document valid under NEW fail OLD because of this change? */
  readonly forward: Verdict;
  readonly reason: string;
  /**
   * The policies under which this change is not `ok` in some direction: `both`, or `strict` when only the
   * strict policy objects to it. Absent when the change is `ok` both ways under both policies.
   */
  readonly breaksUnder?: "strict" | "both";
  /**
   * The proof of each `breaks`: a document the engine accepts under one version and rejects under the
   * other (`backward`: valid under OLD, invalid under NEW; `forward`: the reverse).
   */
  readonly witness?: Witnesses;
  /**
   * What live traffic says of a removed property, from a running monitor's field verdicts: set by
   * `diff --monitor URL` (src/diff/live.ts), absent otherwise.
   */
  readonly live?: LiveHint;
  /** Internal, never in the result: the pair of schema nodes whose comparison found the change. */
  readonly site?: { readonly old: Loc; readonly new: Loc };
}

/**
 * A removed field against live traffic: `carried` (a producer sent it in the verdict's window),
 * `drained` (its drain verdict is yes: safe), `waiting` (nothing carried it in the window, but the
 * drain is not shown: a gap, unreadable records), `absent` (an optional field nothing carried, whose
 * drain is not judged because no version deprecates it), `untracked` (the monitor does not watch it).
 */
export interface LiveHint {
  /** The field as the monitor names it: a JSON Pointer into documents (`/amount`, `/items/*\/sku`). */
  readonly field: string;
  readonly state: "carried" | "drained" | "waiting" | "absent" | "untracked";
  readonly text: string;
}

export interface Witnesses {
  readonly backward?: unknown;
  readonly forward?: unknown;
}

export interface DiffOptions {
  /** Default `strict`. */
  readonly policy?: Policy;
  /** The dialect of a schema without `$schema`; draft-07 (as registries and ajv read it) by default. */
  readonly defaultDialect?: Dialect;
  /** Override the dialect named by OLD's `$schema`. */
  readonly oldDialect?: Dialect;
  readonly newDialect?: Dialect;
  /** The base URI of each side when it has no `$id` of its own: its file's URL, for instance. */
  readonly oldBaseUri?: string;
  readonly newBaseUri?: string;
  /**
   * The engine that validates: witnesses are checked with validators it compiles. Its `assertFormats`
   * also decides whether `format` and `content*` changes count (drafts 04 to 07). One is made when
   * absent, from `defaultDialect`.
   */
  readonly compiler?: SchemaCompiler;
  /** Search witnesses for every `breaks` and `undecided` verdict (default true). */
  readonly witnesses?: boolean;
  /** Returns the schema document for an absolute URI that a `$ref` names outside the schema itself. */
  readonly resolveExternal?: (uri: string) => unknown;
  /**
   * As `resolveExternal`, for one side only: two registered versions may each name a different
   * version of a referenced schema by the same URI.
   */
  readonly oldResolveExternal?: (uri: string) => unknown;
  readonly newResolveExternal?: (uri: string) => unknown;
  /** Names OLD and NEW in error messages (file names, for instance). */
  readonly oldName?: string;
  readonly newName?: string;
  /**
   * The time budget of the comparison, in seconds (none when absent). Past it, each direction not yet
   * decided is `undecided` with the reason `budget`; breaks already proven keep their witnesses.
   */
  readonly budget?: number;
}

/** A comparison whose time budget ran out, and the directions it left undecided for that reason. */
export interface BudgetSpent {
  readonly seconds: number;
  readonly directions: readonly ("backward" | "forward")[];
}

export interface DiffResult {
  readonly policy: Policy;
  readonly compatibility: Compatibility;
  readonly backward: Verdict;
  readonly forward: Verdict;
  /** The least semver bump the change needs. */
  readonly bump: Bump;
  readonly changes: readonly Change[];
  /** Present when the time budget ran out (`DiffOptions.budget`): which directions it left undecided. */
  readonly budget?: BudgetSpent;
}
