import { DocumentBudget, type BudgetSchema } from "./budget.js";
import type { SampleDocument } from "./documents.js";

export interface CheckLine {
  readonly direction: "backward" | "forward";
  readonly document: string;
  readonly passed: boolean;
  readonly keyword: string | null;
  readonly instancePath: string | null;
}

export interface CheckResult {
  readonly lines: readonly CheckLine[];
  /** Documents checked in each direction: old ones against NEW, new ones against OLD. */
  readonly backwardChecked: number;
  readonly forwardChecked: number;
  readonly backwardFailures: number;
  readonly forwardFailures: number;
  readonly strict: boolean;
  /** 1 when a backward check failed, or (with strict) a forward one; else 0. */
  readonly exitCode: 0 | 1;
}

/**
 * The article's CI check: documents valid under the old schema against the new one (backward), new
 * documents against the old one (forward). Backward failures fail the build; forward failures only
 * with `strict`, for a public contract whose old consumers cannot be upgraded first. Each validation
 * has the time budget: one past it stops the check with a VALIDATION_TIMEOUT naming the document.
 */
export function checkCompatibility(
  oldSchema: BudgetSchema,
  newSchema: BudgetSchema,
  oldDocuments: readonly SampleDocument[],
  newDocuments: readonly SampleDocument[],
  strict: boolean,
  budget: DocumentBudget = new DocumentBudget(),
): CheckResult {
  const pairs = [
    ...oldDocuments.map((d) => [newSchema, d] as const),
    ...newDocuments.map((d) => [oldSchema, d] as const),
  ];
  const lines: CheckLine[] = budget.judge(pairs).map((judged, i) => ({
    direction: i < oldDocuments.length ? "backward" : "forward",
    document: pairs[i]![1].name,
    ...judged,
  }));
  const backwardFailures = lines.filter((l) => l.direction === "backward" && !l.passed).length;
  const forwardFailures = lines.filter((l) => l.direction === "forward" && !l.passed).length;
  const failed = backwardFailures > 0 || (strict && forwardFailures > 0);
  return {
    lines,
    backwardChecked: oldDocuments.length,
    forwardChecked: newDocuments.length,
    backwardFailures,
    forwardFailures,
    strict,
    exitCode: failed ? 1 : 0,
  };
}

/**
 * The run in one line, so that a pass says what it checked and forward failures say whether they
 * count: `backward: 2 documents ok; forward: 2 of 3 fail NEW→OLD (information; --strict makes them fatal)`.
 */
export function formatCheckSummary(result: CheckResult): string {
  const part = (checked: number, failures: number, arrow: string): string =>
    failures === 0
      ? `${checked} document${checked === 1 ? "" : "s"} ok`
      : `${failures} of ${checked} fail ${arrow}`;
  const backward = `backward: ${part(result.backwardChecked, result.backwardFailures, "OLD→NEW")}`;
  let forward = `forward: ${part(result.forwardChecked, result.forwardFailures, "NEW→OLD")}`;
  if (result.forwardFailures > 0) {
    forward += result.strict ? " (fatal with --strict)" : " (information; --strict makes them fatal)";
  }
  return `${backward}; ${forward}`;
}

/** `/event` stays as it is; the root pointer "" reads as `root`. */
export function describePath(instancePath: string | null): string {
  return instancePath ? instancePath : "root";
}

/** The article's line: `backward  a-basic.json against new schema: ok`, with the failure after a FAIL. */
export function formatCheckLine(line: CheckLine): string {
  const against = line.direction === "backward" ? "new" : "old";
  const head = `${line.direction.padEnd(8)}  ${line.document.padEnd(12)} against ${against} schema: `;
  return line.passed ? `${head}ok` : `${head}FAIL (${line.keyword} at ${describePath(line.instancePath)})`;
}
