import type { Config } from "../../config/types.js";
import type { SubjectSnapshot } from "../../registry/types.js";

/** Sent first, and again on every catalog reload. */
export interface CatalogMessage {
  readonly kind: "catalog";
  readonly generation: number;
  readonly config: Config;
  /** The registry snapshots the consumer's thread built its catalog from. */
  readonly snapshots: readonly SubjectSnapshot[];
  /** Whether results carry shape keys (the corpus is on). */
  readonly shapes: boolean;
}

export type WorkerReply =
  | { readonly kind: "catalog"; readonly generation: number }
  | { readonly kind: "catalog-failed"; readonly generation: number; readonly problem: string };
