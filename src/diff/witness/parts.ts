import type { Loc } from "../document.js";
import type { Model } from "../model.js";

/**
 * What the generators of a composite's parts (arrays.ts, composite.ts) ask of the driver that called
 * them (generate.ts): values for one part. Declared here so that they never import the driver.
 */
export interface PartValues {
  readonly model: Model;
  /** Values where every schema of `accept` applies, steered toward the edges of `reject`. */
  values(accept: readonly Loc[], reject: readonly Loc[], depth: number, limit?: number): unknown[];
}
