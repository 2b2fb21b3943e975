import { describe, expect, it } from "vitest";
import type { Report } from "../../../src/report/model.js";
import { writeTree } from "../../helpers/files.js";
import { replayReport } from "../../helpers/replay.js";

// Issue 42's field-statistics cases, each in one replayed capture built here: a long change dated to
// its own bucket with its whole factor, a change of exactly the factor, a producer sending most of the
// values odd from its first record (named, and no normal producer beside it), an id counting up (no
// finding), and the amount declared through a $ref to the schema's own $id (profiled).

const T0 = Date.parse("2026-12-01T08:00:00Z");
const MIN = 60_000;
const ID = "https://example.com/schemas/payment/1.0.json";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: ID,
  $defs: { money: { type: "number" } },
  type: "object",
  properties: {
    id: { type: "integer" },
    amount: { $ref: `${ID}#/$defs/money` },
  },
  required: ["id", "amount"],
};

const CONFIG = `logLevel: silent
stats:
  bucket: 10m
subjects:
  - name: payment
    topics: [payments]
    schemas: schemas
`;

/** Amounts between 10.00 and 99.99 in cents, spread evenly. */
const cents = (i: number) => 1000 + ((i * 7919) % 9000);

/** Every producer's records from 08:00 to 10:00, one each 6 s (big: 20 each 6 s from 09:40), in time order. */
function capture(): string {
  const lines: string[] = [];
  let offset = 0;
  const add = (at: number, producer: string, amount: number) =>
    lines.push(
      JSON.stringify({
        topic: "payments",
        partition: 0,
        offset,
        timestamp: at,
        headers: { producer, "schema-version": "1.0" },
        // The id counts up over the whole capture: a trend, never a step.
        value: { id: offset++, amount },
      }),
    );
  for (let i = 0; i < 1200; i++) {
    const at = T0 + i * 6000;
    add(at, "web", cents(i));
    add(at, "shop", cents(i + 7));
    // Cents, then dollars from 08:30 for an hour and a half.
    add(at, "billing", at < T0 + 30 * MIN ? cents(i) : cents(i) / 100);
    // Divided by exactly the factor (10) from 09:00.
    add(at, "tenth", at < T0 + 60 * MIN ? cents(i) : cents(i) / 10);
    if (at >= T0 + 100 * MIN) for (let k = 0; k < 20; k++) add(at, "big", cents(i * 20 + k) * 100);
  }
  return lines.join("\n") + "\n";
}

describe("field findings of a replayed capture (issue 42)", () => {
  it("date each change to its own bucket, find exactly the factor, count peers by producer, and call no counter a drift", async () => {
    const dir = await writeTree({
      "config.yaml": CONFIG,
      "schemas/1.0.json": SCHEMA,
      "capture.ndjson": capture(),
    });
    const report: Report = await replayReport(dir);
    const findings = report.subjects[0]!.findings ?? [];
    expect(findings.map((f) => [f.kind, f.producer, f.field, f.since])).toEqual([
      ["scale", "billing", "/amount", "2026-12-01T08:30:00.000Z"],
      ["scale", "tenth", "/amount", "2026-12-01T09:00:00.000Z"],
      ["peers", "big", "/amount", "2026-12-01T09:40:00.000Z"],
    ]);
    const factor = (producer: string) => findings.find((f) => f.producer === producer)!;
    const billing = factor("billing");
    expect(
      billing.kind === "scale" && [billing.samplesBefore, Math.abs(billing.factor / 0.01 - 1) < 0.02],
    ).toEqual([300, true]);
    const big = factor("big");
    // Its peers are web and shop (billing and tenth show their own change): 200 values each.
    expect(big.kind === "peers" && [big.samplesOwn, big.samplesPeers]).toEqual([4000, 400]);
  });
});
