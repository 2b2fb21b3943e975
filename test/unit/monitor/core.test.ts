import { describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import { replayReport } from "../../helpers/replay.js";

// A rename's steps and its field's verdict come from one judgement (issue 38), and the field-in-use
// item names no producer its step says is past the field. The verdict's buckets reach one time bucket
// (a second here) past its window, the steps and the verdict's reasons each record's own time: web's
// last records with /amount, just outside the window, were once counted, and the item told web to
// stop sending /amount while its step said "done". Its share now reads the records' own times too.

const T0 = Date.parse("2026-12-01T08:00:00Z");

const SCHEMA = JSON.stringify({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://example.com/schemas/pay/1.1.json",
  type: "object",
  properties: { id: { type: "integer" }, amount: { type: "number" }, total: { type: "number" } },
  required: ["id"],
});

/** For 40 s: app sends total alone, billing both; web both until 26.5 s, then total alone. */
function capture(): string {
  const lines: string[] = [];
  const line = (ms: number, producer: string, value: unknown) =>
    lines.push(
      JSON.stringify({
        topic: "payments",
        partition: 0,
        offset: lines.length,
        timestamp: T0 + ms,
        headers: { producer, "schema-version": "1.1" },
        value,
      }),
    );
  for (let t = 0; t <= 40; t++) {
    line(t * 1000, "app", { id: t, total: 3 });
    line(t * 1000, "billing", { id: t, amount: 3, total: 3 });
    const ms = t * 1000 + 500;
    if (t < 40) line(ms, "web", ms <= 26_500 ? { id: t, amount: 3, total: 3 } : { id: t, total: 3 });
  }
  return lines.join("\n") + "\n";
}

describe("a rename's steps and its field's verdict", () => {
  it("agree: the field-in-use item names no producer whose step is done", async () => {
    const dir = await writeTree({
      "pay/1.1.json": SCHEMA,
      "config.yaml": `logLevel: silent
subjects:
  - name: pay
    topics: [payments]
    schemas: ./pay
    drainWindow: 12s
    readyWindow: 12s
    fields:
      replaces:
        /total: /amount
`,
      "capture.ndjson": capture(),
    });
    const report = await replayReport(dir);
    const pay = report.subjects[0]!;
    const amount = pay.fields!.find((f) => f.field === "/amount")!;
    // Web's last two records that carried it came before the window, in a bucket that reaches into
    // it: the verdict's counts, as its reasons and the steps, hold none of them.
    expect(amount.producers.filter((p) => p.present > 0).map((p) => [p.producer, p.present])).toEqual([
      ["billing", 16],
    ]);
    expect(amount.producers.filter((p) => p.inWindow.present).map((p) => p.producer)).toEqual(["billing"]);
    expect(amount.reasons.filter((r) => r.includes("still sends")).map((r) => r.split(" ")[0])).toEqual([
      "billing",
    ]);
    expect(pay.renames![0]!.producers.map((p) => `${p.producer} ${p.step}`)).toEqual([
      "app done",
      "billing switch",
      "web done",
    ]);
    expect(
      report.attention.filter((a) => a.kind === "field-in-use").map((a) => `${a.what} | ${a.action}`),
    ).toEqual([
      "billing still sends /amount in 100% of its records over the last 14s, beside /total | Move consumers to /total, then stop sending /amount from billing before removing it in 2.0.0.",
    ]);
  });
});
