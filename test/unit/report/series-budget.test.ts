import { describe, expect, it } from "vitest";
import type { Report } from "../../../src/report/model.js";
import { monitorSection } from "../../../src/report/sections.js";

// The monitor section says what the series budget folded at the last scrape (docs/metrics.md, "The budget").

function report(seriesBudget?: Report["seriesBudget"]): Report {
  return {
    generatedAt: "2026-12-07T04:00:00.000Z",
    attention: [],
    ready: true,
    notReadyReason: null,
    stateProblem: null,
    problems: [],
    subjects: [],
    decodeErrors: {},
    labelOverflow: {},
    ...(seriesBudget ? { seriesBudget } : {}),
  };
}

const budgetFact = (r: Report) => {
  const facts = monitorSection(r).blocks.find((b) => b.kind === "facts");
  return facts?.kind === "facts" ? facts.facts.find(([label]) => label === "series budget")?.[1] : undefined;
};

describe("the monitor section's series budget", () => {
  it("says every producer is kept under the budget", () => {
    expect(budgetFact(report({ limit: 10_000, folded: 0 }))).toBe("under 10,000 series: every producer's");
  });

  it("warns how many series were summed over producers over it, and where producers stay named", () => {
    expect(budgetFact(report({ limit: 10_000, folded: 12_345 }))).toEqual({
      text:
        "12,345 series summed over producers to keep to 10,000; producers stay named for deprecated and " +
        "retired versions, pairs that would fail and deprecated fields (schemawatch_series_folded)",
      tone: "warn",
    });
  });

  it("says when it folded deeper than producers, and where producers stay named then", () => {
    expect(budgetFact(report({ limit: 10_000, folded: 34_880, deep: true }))).toEqual({
      text:
        "34,880 series summed over producers, writers and topics, or left out at 0, to keep to 10,000; " +
        "producers stay named for retired versions, producers failing their own version and deprecated " +
        "fields, and in the record counts (schemawatch_series_folded)",
      tone: "warn",
    });
  });

  it("says nothing where no budget is known (reports built by the tools)", () => {
    expect(budgetFact(report())).toBeUndefined();
  });
});
