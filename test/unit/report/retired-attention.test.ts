import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { attentionItems } from "../../../src/report/attention.js";
import type { Report, ReportSubject } from "../../../src/report/model.js";
import { renderReport } from "../../../src/report/render.js";
import { writeTree } from "../../helpers/files.js";
import { emptySubject } from "../../helpers/report.js";

// A producer still sending a retired version is the first thing the attention summary names, before
// traffic that breaks consumers and before the monitor's own problems.

const version = (v: string, status: string) => ({
  version: v,
  status,
  records: 0,
  share: 0,
  lastSeen: null,
  producers: {},
  wouldFail: {},
  verdict: null,
});

const subject = emptySubject;

function report(subjects: ReportSubject[], fields: Partial<Report> = {}): Omit<Report, "attention"> {
  return {
    generatedAt: "2026-12-09T11:00:00.000Z",
    ready: true,
    notReadyReason: null,
    stateProblem: null,
    problems: [],
    decodeErrors: {},
    labelOverflow: {},
    ...fields,
    subjects,
  };
}

describe("a retired version still sent", () => {
  it("comes first, of every subject, with the retirement's date when the monitor saw it", () => {
    const forward = {
      writer: "1.1.0",
      reader: "1.0.0",
      direction: "forward" as const,
      validations: 10,
      failed: 10,
      wouldFailRate: 1,
      failures: [{ keyword: "additionalProperties", count: 10, pointer: "" }],
      lossy: 0,
      losses: [],
      producers: { mobile: { validations: 10, failed: 10 } },
    };
    const items = attentionItems(
      report(
        [
          subject("event", {
            versions: [version("1.0.0", "deprecated"), version("1.1.0", "active")],
            wouldFail: [forward],
          }),
          subject("order", {
            versions: [version("1", "retired"), version("2", "active")],
            retiredTraffic: [
              {
                version: "1",
                producer: "billing",
                records: 3,
                last: "2026-12-09T10:41:07.000Z",
                retiredAt: "2026-12-09T10:03:12.000Z",
              },
              {
                version: "1",
                producer: "web",
                records: 1,
                last: "2026-12-09T10:50:00.000Z",
                retiredAt: null,
              },
            ],
          }),
        ],
        { ready: false, notReadyReason: "no partition assigned" },
      ),
    );
    expect(items.map((i) => [i.level, i.kind, i.subject])).toEqual([
      ["act", "retired-traffic", "order"],
      ["act", "retired-traffic", "order"],
      ["act", "forward-incompatible", "event"],
      ["act", "not-ready", null],
    ]);
    expect(items[0]).toEqual({
      level: "act",
      kind: "retired-traffic",
      subject: "order",
      producer: "billing",
      what: "producer billing still sends order 1, retired on 2026-12-09T10:03Z: 3 records since, the last at 2026-12-09T10:41:07.000Z",
      action:
        "Stop billing sending 1: consumers may no longer read it. If some still need it, make 1 deprecated again (the registry's state, or the catalog) until billing has moved; see the runbook (SchemawatchRetiredVersionTraffic).",
    });
    expect(items[1]!.what).toBe(
      "producer web still sends order 1, which is retired: 1 record, the last at 2026-12-09T10:50:00.000Z",
    );
  });

  it("is what a report of a capture says first, for records that declare a version the config retired", async () => {
    const t0 = Date.parse("2026-12-01T08:00:00Z");
    const line = (offset: number, producer: string, declared: string, value: object) =>
      JSON.stringify({
        topic: "events",
        partition: 0,
        offset,
        timestamp: t0 + offset * 1000,
        headers: { producer, "schema-version": declared },
        value,
      });
    const dir = await writeTree({
      "config.yaml": `logLevel: silent
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: retired }
      "1.1.0": { status: active }
`,
      "capture.ndjson": [
        line(0, "web", "event/1.1", { id: 1, event: "view" }),
        line(1, "billing", "event/1.0", { id: 2, event: "view" }),
        line(2, "billing", "event/1.0", { id: 3, event: "view" }),
        line(3, "web", "event/1.1", { id: 4, event: "view" }),
      ].join("\n"),
    });
    const monitor = await startMonitor({
      configPath: `${dir}/config.yaml`,
      source: { file: `${dir}/capture.ndjson` },
      host: "127.0.0.1",
      port: 0,
      env: {},
      version: "0.0.0-test",
      logger: createLogger("silent"),
    });
    try {
      await monitor.replayed;
      const built = monitor.report();
      expect(built.subjects[0]!.retiredTraffic).toEqual([
        {
          version: "1.0.0",
          producer: "billing",
          records: 2,
          last: "2026-12-01T08:00:02.000Z",
          retiredAt: null,
        },
      ]);
      expect(built.attention[0]!.what).toBe(
        "producer billing still sends event 1.0.0, which is retired: 2 records, the last at 2026-12-01T08:00:02.000Z",
      );
      expect(renderReport(built, "text")).toContain(
        "producer billing still sends event 1.0.0, which is retired",
      );
    } finally {
      await monitor.stop();
    }
  });
});
