import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { payCapture, paySchema as schema } from "../../helpers/pay-topic.js";

// `readiness --field` offline, on a capture: the rename `amount` → `total` (1.1 deprecates amount and
// adds total), and `currency`, optional, that no producer sends yet.

const T0 = Date.parse("2026-12-01T08:00:00Z");

const CATALOG = {
  "pay/1.0.json": schema("1.0", { id: { type: "integer" }, amount: { type: "number" } }, ["id", "amount"]),
  "pay/1.1.json": schema(
    "1.1",
    {
      id: { type: "integer" },
      amount: { type: "number", deprecated: true },
      total: { type: "number" },
      currency: { type: "string" },
    },
    ["id"],
  ),
};

/** Billing sends amount and total until `amountUntil` seconds, then total only; web sends total only. */
const capture = (amountUntil: number) => payCapture(T0, amountUntil);

async function captureDir(amountUntil: number) {
  return writeTree({
    ...CATALOG,
    "config.yaml": `logLevel: silent
subjects:
  - name: pay
    topics: [payments]
    schemas: ./pay
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    drainWindow: 60s
    readyWindow: 60s
    minSamples: 20
`,
    "capture.ndjson": capture(amountUntil),
  });
}

async function readiness(amountUntil: number, ...args: string[]) {
  const dir = await captureDir(amountUntil);
  return runCli([
    "readiness",
    "--subject",
    "pay",
    ...args,
    "--config",
    `${dir}/config.yaml`,
    "--source",
    `file:${dir}/capture.ndjson`,
  ]);
}

describe("readiness --field", () => {
  it("exits 0 for a deprecated field no record carried for the drain window, and for one every producer sends", async () => {
    const drained = await readiness(30, "--field", "/amount");
    expect(drained.stdout).toBe(
      "pay /amount is drained: no record carried it for 1m, with every partition observed; remove it in 2.0.0\n",
    );
    expect(drained.code).toBe(0);
    const ready = await readiness(30, "--field", "/total");
    expect(ready.stdout).toBe(
      "pay /total is ready to require: every producer sent it in every record for 1m (202 records since the last that lacked it); add it to required in 2.0.0\n",
    );
    expect(ready.code).toBe(0);
  });

  it("exits 1 with the reasons: the producers still sending the deprecated field, or omitting the optional one", async () => {
    const inUse = await readiness(90, "--field", "/amount");
    // The window's share is counted in buckets of a twelfth of it (5 s): here t = 34..100, 67 records.
    expect(inUse.stdout).toBe(
      "pay /amount is not drained yet:\n  - billing still sends /amount in 85% of its records (57 of 67 in the last 1m5s; writer 1.1.0), the last one 10s ago\n",
    );
    expect(inUse.code).toBe(1);
    const omitted = await readiness(90, "--field", "/currency");
    expect(omitted.stdout).toBe(
      [
        "pay /currency is not ready to require yet:",
        "  - billing still omits /currency in 100% of its records (67 of 67 in the last 1m5s; writer 1.1.0), the last one just now",
        "  - web still omits /currency in 100% of its records (67 of 67 in the last 1m5s; writer 1.1.0), the last one just now",
        "  - 0 records carried /currency since the last that lacked it; 20 needed",
        "",
      ].join("\n"),
    );
    expect(omitted.code).toBe(1);
  });

  it("exits 2 for a field not tracked, naming the ones that are", async () => {
    const result = await readiness(30, "--field", "/nope");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pay has no tracked field '/nope' (tracked: /amount, /currency, /total)");
    const both = await readiness(30, "--field", "/amount", "--version", "1.0");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give --version V or --field POINTER, not both");
  });
});

describe("the field gauges", () => {
  it("say the last judgement's verdicts on /metrics, each tracked field at 0 until it is reached", async () => {
    const dir = await captureDir(30);
    const monitor = await startMonitor({
      configPath: `${dir}/config.yaml`,
      source: { file: `${dir}/capture.ndjson` },
      host: "127.0.0.1",
      port: 0,
      env: {},
      version: "test",
      logger: createLogger("silent"),
    });
    try {
      await monitor.replayed;
      monitor.report(); // a judgement (live, the lifecycle's tick judges every 10 s)
      const text = await (await fetch(`${monitor.address}/metrics`)).text();
      expect(text.split("\n").filter((l) => /^schemawatch_field_(drained|ready)\{/.test(l))).toEqual([
        'schemawatch_field_drained{subject="pay",field="/amount"} 1',
        'schemawatch_field_ready{subject="pay",field="/currency"} 0',
        'schemawatch_field_ready{subject="pay",field="/total"} 1',
      ]);
      // /api/status carries the same verdicts per subject, beside the attention items they give.
      const status = (await (await fetch(`${monitor.address}/api/status`)).json()) as {
        fields: Record<string, Array<{ field: string; kind: string; yes: boolean }>>;
        attention: Array<{ kind: string; action: string }>;
      };
      expect(status.fields["pay"]!.map((f) => [f.field, f.kind, f.yes])).toEqual([
        ["/amount", "drained", true],
        ["/currency", "ready", false],
        ["/total", "ready", true],
      ]);
      expect(status.attention.filter((a) => a.kind.startsWith("field-"))).toEqual([
        {
          level: "act",
          kind: "field-drained",
          subject: "pay",
          what: "/amount of pay is drained: no record carried it for the whole drain window, with every partition observed",
          action: "Remove /amount in 2.0.0.",
        },
        {
          level: "act",
          kind: "field-ready",
          subject: "pay",
          what: "every producer sends /total of pay in every record",
          action: "It can be added to required in 2.0.0.",
        },
      ]);
    } finally {
      await monitor.stop();
    }
  });
});
