import type { Verdict } from "../lifecycle/verdicts.js";

const COVERAGE_GAP = /^coverage gap on (\S+) until (\S+)$/;
const TOO_FEW = /^(\d+) samples without a failure; (\d+) needed$/;

/**
 * A verdict's reasons as an operator reads them: the per-partition lines of a window still being
 * observed become one line that says when it completes (it is no outage), and the sample count of a
 * candidate says what it is for. Every other reason is already in plain words. The reasons as the
 * lifecycle gave them stay in the evidence.
 */
export function plainReasons(verdict: Verdict): string[] {
  const out: string[] = [];
  let building: { at: number; partitions: number; until: string } | undefined;
  for (const reason of verdict.reasons) {
    const gap = COVERAGE_GAP.exec(reason);
    if (gap !== null) {
      if (building === undefined) {
        building = { at: out.length, partitions: 0, until: gap[2]! };
        out.push("");
      }
      building.partitions++;
      if (gap[2]! > building.until) building.until = gap[2]!;
      continue;
    }
    const few = TOO_FEW.exec(reason);
    if (few !== null) {
      out.push(
        `${few[1]} sampled records in a row passed it so far; ${few[2]} are needed before it can be called ready`,
      );
      continue;
    }
    out.push(reason);
  }
  if (building !== undefined) {
    const window = typeof verdict.evidence["window"] === "string" ? ` (${verdict.evidence["window"]})` : "";
    const where = building.partitions === 1 ? "" : ` (on all ${building.partitions} partitions)`;
    out[building.at] =
      `the window${window} is still being observed: it is complete at ${building.until}${where}`;
  }
  return out;
}

/** What a yes means, in one sentence. */
export function plainYes(verdict: Verdict, version: string): string {
  return verdict.kind === "drained"
    ? `Drained: nothing declared or needed ${version} for the whole window, with every partition observed. It can be removed.`
    : `Ready: every sampled record passed ${version} for the whole window, with enough samples. It can be released.`;
}
