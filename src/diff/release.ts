import type { Version } from "../catalog/version.js";
import type { Bump, Compatibility, DiffResult, Verdict } from "./vocabulary.js";

const ORDER: Readonly<Record<Bump, number>> = { none: 0, patch: 1, minor: 2, major: 3 };

/** The bump a release declares by its version numbers; `downgrade` when NEW is not after OLD. */
export function declaredBump(before: Version, after: Version): Bump | "downgrade" {
  for (const part of ["major", "minor", "patch"] as const) {
    if (after[part] > before[part]) return part;
    if (after[part] < before[part]) return "downgrade";
  }
  return "none";
}

/** Is a release numbered `declared` allowed to carry changes that need `needed`? */
export function suffices(declared: Bump, needed: Bump): boolean {
  return ORDER[declared] >= ORDER[needed];
}

/** What sample documents showed: the names of those that pass one version and fail the other. */
export interface Evidence {
  readonly checked: number;
  /** Documents valid under OLD: the ones that could show a backward break. */
  readonly validOld: number;
  readonly validNew: number;
  /** Pass OLD, fail NEW. */
  readonly backward: readonly string[];
  /** Pass NEW, fail OLD. */
  readonly forward: readonly string[];
}

export interface NamedDocument {
  readonly name: string;
  readonly json: unknown;
}

export function gatherEvidence(
  documents: readonly NamedDocument[],
  validateOld: (document: unknown) => boolean,
  validateNew: (document: unknown) => boolean,
): Evidence {
  const backward: string[] = [];
  const forward: string[] = [];
  let validOld = 0;
  let validNew = 0;
  for (const document of documents) {
    const inOld = validateOld(document.json);
    const inNew = validateNew(document.json);
    if (inOld) validOld++;
    if (inNew) validNew++;
    if (inOld && !inNew) backward.push(document.name);
    if (inNew && !inOld) forward.push(document.name);
  }
  return { checked: documents.length, validOld, validNew, backward, forward };
}

function settleOne(verdict: Verdict, failures: number, candidates: number): Verdict {
  if (failures > 0) return "breaks";
  // Only a direction structure left open is settled by documents, and only if some were tried.
  return verdict === "undecided" && candidates > 0 ? "ok" : verdict;
}

function compatibilityOf(backward: Verdict, forward: Verdict): Compatibility {
  if (backward === "ok") return forward === "ok" ? "FULL" : "BACKWARD";
  return forward === "ok" ? "FORWARD" : "NONE";
}

/**
 * Folds document evidence into a result: a document that passes one version and fails the other proves a
 * break; an undecided direction with documents tried and none failing becomes ok. Changes are unchanged.
 */
export function settle(result: DiffResult, evidence: Evidence): DiffResult {
  const backward = settleOne(result.backward, evidence.backward.length, evidence.validOld);
  const forward = settleOne(result.forward, evidence.forward.length, evidence.validNew);
  let bump = result.bump;
  if (backward !== "ok") bump = "major";
  else if (bump === "major") bump = "minor";
  return { ...result, backward, forward, compatibility: compatibilityOf(backward, forward), bump };
}
