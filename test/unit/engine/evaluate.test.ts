import { describe, expect, it } from "vitest";
import type { CatalogSubject, CatalogVersion } from "../../../src/catalog/types.js";
import { parseVersion } from "../../../src/catalog/version.js";
import { evaluate } from "../../../src/engine/evaluate.js";
import type { Format, ReaderCheck } from "../../../src/formats/format.js";
import { JSON_FORMAT } from "../../../src/formats/json.js";

const version = (text: string) =>
  ({ version: parseVersion(text, "test"), status: "active" }) as unknown as CatalogVersion;
const v1 = version("1.0");
const v2 = version("2.0");
const v3 = version("3.0");

/** A format whose answers are set per reader: what evaluate makes of each outcome. */
const outcomes = new Map<CatalogVersion, ReaderCheck>([
  [v1, { outcome: "fails", rule: "union_branch", location: "/pay" }],
  [v2, { outcome: "lossy", rule: "field_dropped", location: "/note" }],
  [v3, { outcome: "ok", rule: null, location: null }],
]);
const scripted: Format = {
  ...JSON_FORMAT,
  check: (reader, _value, out) => Object.assign(out, outcomes.get(reader)),
};
const subject = { readers: [v1, v2, v3], format: scripted } as unknown as CatalogSubject;

describe("evaluate through the subject's format", () => {
  it("reads ok and lossy as passed (lossy said, with its rule and place), fails as failed, with directions", () => {
    const results = evaluate({ any: 1 }, subject, parseVersion("2.0", "test"));
    expect(
      results.map((r) => [r.reader.version.text, r.direction, r.passed, r.lossy, r.keyword, r.instancePath]),
    ).toEqual([
      ["1.0.0", "forward", false, false, "union_branch", "/pay"],
      ["2.0.0", "conformance", true, true, "field_dropped", "/note"],
      ["3.0.0", "backward", true, false, null, null],
    ]);
  });
});
