import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../../src/report/model.js";
import { writeTree } from "../../helpers/files.js";
import { runCli } from "../../helpers/cli.js";

// Issue 42: a replay samples on the capture's clock, not the wall clock. A capture of an hour at under
// one record a second per subject is validated whole, however fast the machine replays it, so the
// same capture gives the same report (timing apart) on any machine and in any run.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const PRODUCERS = ["billing", "web", "mobile"] as const;
/** Records of each producer: one every 3.6 s per producer, 0.83 a second in all. */
const EACH = 1000;

const CONFIG = `logLevel: silent
stats:
  bucket: 10m
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.1.0": { status: active }
    sampling: { maxPerSecond: 20 }
`;

/** Amounts between 10.00 and 99.99 in cents, spread evenly; billing's in dollars from half-time on. */
function capture(): string {
  const lines: string[] = [];
  for (let i = 0; i < EACH; i++)
    PRODUCERS.forEach((producer, p) => {
      const offset = i * PRODUCERS.length + p;
      const cents = 1000 + ((offset * 7919) % 9000);
      const amount = producer === "billing" && i >= EACH / 2 ? cents / 100 : cents;
      lines.push(
        JSON.stringify({
          topic: "events",
          partition: 0,
          offset,
          timestamp: T0 + offset * 1200,
          headers: { producer, "schema-version": "1.1" },
          value: { id: (offset * 7) % 101, event: "buy", amount },
        }),
      );
    });
  return lines.join("\n") + "\n";
}

describe("a replay's sampling", () => {
  it("is on the capture's clock: every record of a capture slower than maxPerSecond is validated, report --format json byte-identical each time", async () => {
    const dir = await writeTree({ "config.yaml": CONFIG, "capture.ndjson": capture() });
    const report = () =>
      runCli([
        "report",
        "--config",
        `${dir}/config.yaml`,
        "--source",
        `file:${dir}/capture.ndjson`,
        "--format",
        "json",
      ]);
    const [one, two] = [await report(), await report()];
    expect([one.code, two.code]).toEqual([0, 0]);
    // Byte for byte: no timing field differs either (generatedAt is the capture's clock).
    expect(two.stdout).toBe(one.stdout);
    const first = JSON.parse(one.stdout) as Report;
    const subject = (report: Report) => report.subjects[0]!;
    const version = subject(first).versions.find((v) => v.version === "1.1.0")!;
    // Every record validated (the wall clock let about 20 of 3,000 through, and some more per second).
    expect([subject(first).records, subject(first).sampleRatio, version.wouldFail.conformance]).toEqual([
      3000,
      1,
      { validations: 3000, failed: 0, wouldFailRate: 0 },
    ]);
    // billing's every value is profiled: 1,000 on the two sides of its change together.
    const found = subject(first).findings?.map((f) =>
      f.kind === "scale"
        ? [f.kind, f.producer, f.field, f.since, f.samplesBefore + f.samplesAfter]
        : [f.kind],
    );
    expect(found).toEqual([["scale", "billing", "/amount", "2026-12-01T08:30:00.000Z", EACH]]);
    expect(first.generatedAt).toBe("2026-12-01T08:59:58.800Z");
  });
});
