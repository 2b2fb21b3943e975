import { describe, expect, it } from "vitest";
import type { Verdict } from "../../../src/lifecycle/verdicts.js";
import { plainReasons, plainYes } from "../../../src/report/plain.js";

const verdict = (reasons: string[], kind: Verdict["kind"] = "drained"): Verdict => ({
  kind,
  yes: reasons.length === 0,
  reasons,
  evidence: { window: "7d" },
});

describe("a verdict in plain words", () => {
  it("says once when a window still being observed completes, at its latest partition, where the first gap was", () => {
    expect(
      plainReasons(
        verdict([
          "last seen 3s ago from producer web",
          "coverage gap on events/0 until 2026-12-08T08:00Z",
          "registry main down since 2026-12-02T09:00Z: a version registered meanwhile could be what the records carry",
          "coverage gap on events/1 until 2026-12-08T09:30Z",
        ]),
      ),
    ).toEqual([
      "last seen 3s ago from producer web",
      "the window (7d) is still being observed: it is complete at 2026-12-08T09:30Z (on all 2 partitions)",
      "registry main down since 2026-12-02T09:00Z: a version registered meanwhile could be what the records carry",
    ]);
  });

  it("names no partition count for one partition, and says what the sample count is for", () => {
    expect(
      plainReasons(
        verdict(
          ["coverage gap on events/0 until 2026-12-08T08:00Z", "12 samples without a failure; 300 needed"],
          "ready",
        ),
      ),
    ).toEqual([
      "the window (7d) is still being observed: it is complete at 2026-12-08T08:00Z",
      "12 sampled records in a row passed it so far; 300 are needed before it can be called ready",
    ]);
  });

  it("leaves every other reason as the lifecycle gave it", () => {
    const reasons = [
      "an open transaction on events/0 since 2026-12-02T09:14Z: 50 records not yet readable (counted once it commits, never if it aborts)",
      "partition events/1 not observed since 2026-12-02T09:00Z",
    ];
    expect(plainReasons(verdict(reasons))).toEqual(reasons);
  });

  it("says what a yes means", () => {
    expect(plainYes(verdict([]), "1.0.0")).toBe(
      "Drained: nothing declared or needed 1.0.0 for the whole window, with every partition observed. It can be removed.",
    );
    expect(plainYes(verdict([], "ready"), "2.0.0")).toBe(
      "Ready: every sampled record passed 2.0.0 for the whole window, with enough samples. It can be released.",
    );
  });
});
