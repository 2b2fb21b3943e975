import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

// A rename the schemas do not mark: 1.1 declares amount and total, and the config says total
// replaces amount. On a capture of 101 s: billing sends amount alone until t = 50, then total alone;
// web sends both throughout; app sends total alone. The drain window is 1 minute (t = 40 to 100).

const T0 = Date.parse("2026-12-01T08:00:00Z");

const SCHEMA = JSON.stringify({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://example.com/schemas/pay/1.1.json",
  type: "object",
  properties: { id: { type: "integer" }, amount: { type: "number" }, total: { type: "number" } },
  required: ["id"],
});

function capture(): string {
  const lines: string[] = [];
  for (let t = 0; t <= 100; t++)
    for (const producer of ["app", "billing", "web"]) {
      const value =
        producer === "web"
          ? { id: t, amount: 3, total: 3 }
          : producer === "billing" && t <= 50
            ? { id: t, amount: 3 }
            : { id: t, total: 3 };
      lines.push(
        JSON.stringify({
          topic: "payments",
          partition: 0,
          offset: lines.length,
          timestamp: T0 + t * 1000,
          headers: { producer, "schema-version": "1.1" },
          value,
        }),
      );
    }
  return lines.join("\n") + "\n";
}

async function run(...args: string[]) {
  const dir = await writeTree({
    "pay/1.1.json": SCHEMA,
    "config.yaml": `logLevel: silent
subjects:
  - name: pay
    topics: [payments]
    schemas: ./pay
    drainWindow: 60s
    readyWindow: 60s
    minSamples: 20
    fields:
      replaces:
        /total: /amount
`,
    "capture.ndjson": capture(),
  });
  return runCli([...args, "--config", `${dir}/config.yaml`, "--source", `file:${dir}/capture.ndjson`]);
}

const PROGRESS = [
  "/total replaces /amount: records since the state began, steps from the last 1m:",
  "  app: 0 with /amount only, 0 with both, 101 with /total only, 0 with neither, 0 unreadable; sends /total only: done; /amount can be removed once drained",
  "  billing: 51 with /amount only, 0 with both, 50 with /total only, 0 with neither, 0 unreadable; sends /amount without /total: add /total and send both (step 1)",
  "  web: 0 with /amount only, 101 with both, 0 with /total only, 0 with neither, 0 unreadable; sends both: move consumers to /total, then stop sending /amount (steps 2 and 3)",
  "",
].join("\n");

describe("a rename from the config, on a capture", () => {
  it("readiness --field on either field of the pair prints each producer's progress and step after the verdict", async () => {
    const amount = await run("readiness", "--subject", "pay", "--field", "/amount");
    expect(amount.code).toBe(1);
    const [verdict, ...rest] = amount.stdout.split("/total replaces");
    expect(verdict!.split("\n").slice(0, 1)).toEqual(["pay /amount is not drained yet:"]);
    expect(verdict).toMatch(/^ {2}- billing still sends \/amount in \d+% of its records/m);
    expect(verdict).toMatch(/^ {2}- web still sends \/amount in 100% of its records/m);
    expect(`/total replaces${rest.join("/total replaces")}`).toBe(PROGRESS);
    const total = await run("readiness", "--subject", "pay", "--field", "/total");
    expect(total.code).toBe(1);
    expect(total.stdout.endsWith(PROGRESS)).toBe(true);
    expect(total.stdout).toMatch(
      /^pay \/total is not ready to require yet:\n {2}- billing still omits \/total/,
    );
  });

  it("readiness --format json carries the rename beside the verdict", async () => {
    const result = await run("readiness", "--subject", "pay", "--field", "/amount", "--format", "json");
    const parsed = JSON.parse(result.stdout) as {
      fieldKind: string;
      version: string;
      rename: {
        field: string;
        replacement: string;
        window: string;
        producers: { producer: string; records: unknown; step: string }[];
      };
    };
    // No schema marks amount deprecated: the config's rename does, in the newest version.
    expect([parsed.fieldKind, parsed.version]).toEqual(["deprecated", "1.1.0"]);
    expect([parsed.rename.field, parsed.rename.replacement, parsed.rename.window]).toEqual([
      "/amount",
      "/total",
      "1m",
    ]);
    expect(parsed.rename.producers.map((p) => [p.producer, p.records, p.step])).toEqual([
      ["app", { old: 0, both: 0, new: 101, neither: 0, unknown: 0 }, "done"],
      ["billing", { old: 51, both: 0, new: 50, neither: 0, unknown: 0 }, "add"],
      ["web", { old: 0, both: 101, new: 0, neither: 0, unknown: 0 }, "switch"],
    ]);
  });

  it("report: the attention item names the step to take, and every format shows the progress table", async () => {
    const json = await run("report", "--format", "json");
    const report = JSON.parse(json.stdout) as {
      attention: { kind: string; what: string; action: string }[];
      subjects: { renames: { producers: { producer: string; words: string }[] }[] }[];
    };
    const inUse = report.attention.filter((a) => a.kind === "field-in-use");
    expect(inUse.map((a) => a.action)).toEqual([
      "Have billing send /total beside /amount (step 1 of the rename), before /amount can stop.",
    ]);
    expect(inUse[0]!.what).toMatch(
      /^billing still sends \/amount in \d+% of its records over the last 1m5s, without \/total; web still sends \/amount in 100% of its records over the last 1m5s, beside \/total$/,
    );
    expect(report.subjects[0]!.renames[0]!.producers.map((p) => p.producer)).toEqual([
      "app",
      "billing",
      "web",
    ]);
    for (const format of ["text", "markdown", "html"]) {
      const rendered = (await run("report", "--format", format)).stdout;
      expect(rendered, format).toContain("records since the state began, and its step from the last 1m");
      expect(rendered, format).toContain("sends /amount without /total: add /total and send both (step 1)");
      expect(rendered, format).toContain("replaced by /total, deprecated in 1.1.0");
    }
  });
});
