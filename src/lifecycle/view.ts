import type { Lifecycle } from "./lifecycle.js";
import type { FieldVerdict } from "./field-verdicts.js";
import type { Verdict } from "./verdicts.js";

/** What the report and the metrics read of a running lifecycle (the monitor's `LifecycleRuntime`). */
export interface LifecycleView {
  readonly lifecycle: Lifecycle;
  /** A problem with the state, for the report; undefined when the state was fine. */
  readonly stateProblem: string | undefined;
  /** The verdicts now, after folding in what the tallies know. */
  verdicts(): Map<string, Verdict>;
  /** The verdict of the last judgement. */
  verdict(subject: string, version: string): Verdict | undefined;
  /** The field verdicts of the last judgement (after `verdicts()`), keyed `subject \0 pointer`. */
  fieldVerdicts?(): ReadonlyMap<string, FieldVerdict>;
}
