import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { attentionItems, needsAttention } from "../../../src/report/attention.js";
import type { Report, ReportSubject } from "../../../src/report/model.js";
import { renderReport } from "../../../src/report/render.js";
import { writeTree } from "../../helpers/files.js";
import { emptySubject } from "../../helpers/report.js";

async function replay(configPath: string, capture: string) {
  const monitor = await startMonitor({
    configPath,
    source: { file: capture },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-test",
    logger: createLogger("silent"),
  });
  await monitor.replayed;
  try {
    return monitor.report();
  } finally {
    await monitor.stop();
  }
}

/**
 * What needs an operator in the bundled traffic (examples/traffic/events.ndjson), most urgent first:
 * the report's summary and `/api/status` must both say exactly this.
 */
const BUNDLED_ATTENTION = [
  {
    level: "act",
    kind: "forward-incompatible",
    cause: "behind-1",
    subject: "event",
    producer: "billing",
    what: "producer billing: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root)",
    action:
      "Upgrade the consumers still on 1.0.0 before they read billing's 1.1.0 records, or keep billing on a version they accept until they are.",
  },
  {
    level: "act",
    kind: "forward-incompatible",
    cause: "behind-1",
    subject: "event",
    producer: "mobile",
    what: "producer mobile: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root)",
    action:
      "Upgrade the consumers still on 1.0.0 before they read mobile's 1.1.0 records, or keep mobile on a version they accept until they are.",
  },
  {
    level: "act",
    kind: "forward-incompatible",
    cause: "behind-1",
    subject: "event",
    producer: "partner-feed",
    what: "producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) would break consumers still on 1.0.0 (additionalProperties at the root)",
    action:
      "Upgrade the consumers still on 1.0.0 before they read partner-feed's 1.1.0 records, or keep partner-feed on a version they accept until they are.",
  },
  {
    level: "act",
    kind: "non-conformant",
    subject: "event",
    producer: "partner-feed",
    what: "producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) fail 1.1.0 itself, the version they declare (additionalProperties at the root)",
    action:
      "Fix partner-feed: its records do not match the version they declare (the would-fail matrix names the keyword and the path).",
  },
  {
    level: "watch",
    kind: "unreadable",
    cause: "blocks-drain",
    subject: "event",
    what: "2 records of event whose version could not be read (truncated_wire_prefix, unknown_schema_id), from producer billing (2)",
    action:
      "Make their version readable (a version header, a registered schema id, a larger maxRecordBytes): until they stop, no deprecated version can be judged removable.",
  },
  {
    level: "info",
    kind: "not-ready",
    subject: "event",
    what: "candidate 2.0.0 of event is not ready: producer legacy-batch: 20 of 20 samples fail 2.0.0 (required at root), last one 4s ago (and 3 more reasons)",
    action: "Keep 2.0.0 a candidate until the producers named send what it requires.",
  },
  {
    level: "info",
    kind: "coverage-building",
    subject: "event",
    what: "the windows of event are still being observed; the last completes at 2026-12-08T08:00Z",
    action: "Nothing to do: the verdicts come once the windows are observed whole.",
  },
];

describe("the attention summary", () => {
  it("names each thing in the bundled traffic that needs an operator, most urgent first", async () => {
    const report = await replay("examples/config.yaml", "examples/traffic/events.ndjson");
    expect(report.attention).toEqual(BUNDLED_ATTENTION);
    expect(needsAttention(report.attention)).toBe(true);
    const text = renderReport(report, "text");
    expect(text).toContain("what needs you: 5 things");
    expect(text).toContain("5 things need you, most urgent first:");
  });

  it("is served on /api/status by the monitor that replayed the bundled traffic, the same items", async () => {
    const monitor = await startMonitor({
      configPath: "examples/config.yaml",
      source: { file: "examples/traffic/events.ndjson" },
      host: "127.0.0.1",
      port: 0,
      env: {},
      version: "0.0.0-test",
      logger: createLogger("silent"),
    });
    try {
      await monitor.replayed;
      const response = await fetch(`${monitor.address}/api/status`);
      expect(response.status).toBe(200);
      const status = (await response.json()) as { attention: unknown; attentionGroups: unknown };
      expect(status.attention).toEqual(BUNDLED_ATTENTION);
      // One subject: each item a line of its own, in its own words.
      expect(status.attentionGroups).toEqual(
        BUNDLED_ATTENTION.map(({ subject, producer: _producer, ...item }) => ({
          ...item,
          subjects: [subject],
          members: [BUNDLED_ATTENTION.find((i) => i.what === item.what)],
        })),
      );
    } finally {
      await monitor.stop();
    }
  });

  it('says "Nothing needs you" for healthy traffic, even while windows are still observed', async () => {
    const dir = await writeTree({
      "config.yaml": `logLevel: silent
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
`,
      "capture.ndjson":
        Array.from({ length: 20 }, (_, i) =>
          JSON.stringify({
            topic: "events",
            partition: 0,
            offset: i,
            timestamp: Date.parse("2026-12-01T08:00:00Z") + i * 1000,
            headers: { producer: "web", "schema-version": "event/1.1" },
            value: { id: i, event: "view" },
          }),
        ).join("\n") + "\n",
    });
    const report = await replay(`${dir}/config.yaml`, `${dir}/capture.ndjson`);
    // the candidate that requires amount is not ready, which needs nobody yet
    expect(report.attention.map((a) => [a.level, a.kind])).toEqual([
      ["info", "not-ready"],
      ["info", "coverage-building"],
    ]);
    expect(needsAttention(report.attention)).toBe(false);
    expect(renderReport(report, "text")).toContain("what needs you: nothing");
    expect(renderReport(report, "markdown")).toContain("Nothing needs you.");
  });
});

/** A report of one subject with nothing in it, to change one field at a time. */
function quiet(
  subject: Partial<ReportSubject> = {},
  report: Partial<Report> = {},
): Omit<Report, "attention"> {
  return {
    generatedAt: "2026-12-02T10:00:00.000Z",
    ready: true,
    notReadyReason: null,
    stateProblem: null,
    problems: [],
    decodeErrors: {},
    labelOverflow: {},
    ...report,
    subjects: [emptySubject("event", subject)],
  };
}

const version = (v: string, status: string, verdict: ReportSubject["versions"][number]["verdict"]) => ({
  version: v,
  status,
  records: 0,
  share: 0,
  lastSeen: null,
  producers: {},
  wouldFail: {},
  verdict,
});

describe("attention items", () => {
  it("nothing at all: nothing needs you", () => {
    expect(attentionItems(quiet())).toEqual([]);
  });

  it("a drained version and a ready candidate are things to do now", () => {
    const items = attentionItems(
      quiet({
        versions: [
          version("1.0.0", "deprecated", { kind: "drained", yes: true, reasons: [], evidence: {} }),
          version("2.0.0", "candidate", { kind: "ready", yes: true, reasons: [], evidence: {} }),
        ],
      }),
    );
    expect(items.map((i) => [i.level, i.kind, i.action])).toEqual([
      ["act", "drained", "Remove 1.0.0: retire it in the registry or the catalog."],
      ["act", "ready", "Release 2.0.0: make it active."],
    ]);
  });

  it("a backward failure counts only against a version consumers may use, never a candidate", () => {
    const entry = (reader: string) => ({
      writer: "1.0.0",
      reader,
      direction: "backward" as const,
      validations: 10,
      failed: 5,
      wouldFailRate: 0.5,
      failures: [{ keyword: "required", count: 5, pointer: "" }],
      lossy: 0,
      losses: [],
      producers: { web: { validations: 10, failed: 5 } },
    });
    const items = attentionItems(
      quiet({
        versions: [version("1.1.0", "active", null), version("2.0.0", "candidate", null)],
        wouldFail: [entry("1.1.0"), entry("2.0.0")],
      }),
    );
    expect(items.map((i) => i.what)).toEqual([
      "producer web: 50% of its sampled 1.0.0 records (5 of 10) would break consumers upgraded to 1.1.0 (required at the root)",
    ]);
  });

  it("says how many released versions apart a producer and its consumers are: the cause items share", () => {
    const entry = (writer: string, reader: string, direction: "forward" | "backward") => ({
      writer,
      reader,
      direction,
      validations: 4,
      failed: 4,
      wouldFailRate: 1,
      failures: [],
      lossy: 0,
      losses: [],
      producers: { web: { validations: 4, failed: 4 } },
    });
    const items = attentionItems(
      quiet({
        // A candidate between them is no version a consumer reads; a writer the subject does not list
        // has no distance.
        versions: [
          version("1.0.0", "deprecated", null),
          version("1.1.0", "active", null),
          version("1.2.0", "candidate", null),
          version("2.0.0", "active", null),
        ],
        wouldFail: [
          entry("2.0.0", "1.1.0", "forward"),
          entry("2.0.0", "1.0.0", "forward"),
          entry("1.0.0", "2.0.0", "backward"),
          entry("9.0.0", "1.0.0", "forward"),
        ],
      }),
    );
    expect(items.map((i) => [i.kind, i.cause, i.producer])).toEqual([
      ["forward-incompatible", "behind-1", "web"],
      ["forward-incompatible", "behind-2", "web"],
      ["backward-incompatible", "ahead-2", "web"],
      ["forward-incompatible", undefined, "web"],
    ]);
  });

  it("the monitor, its state and its registry come after the subjects' items of the same level", () => {
    const items = attentionItems(
      quiet(
        {
          versions: [
            version("1.0.0", "deprecated", { kind: "drained", yes: true, reasons: [], evidence: {} }),
          ],
          registry: {
            name: "main",
            url: "http://registry",
            up: false,
            downSince: "2026-12-02T09:00:00.000Z",
            lastSuccess: null,
            lastError: "ECONNREFUSED",
            lookups: { found: 0, missing: 0, failed: 0, unsupported: 0 },
            subject: "event-value",
            compatibility: null,
            snapshotAt: null,
            leftOut: [],
          },
        },
        {
          ready: false,
          notReadyReason: "no partition assigned",
          stateProblem: "state.json: not JSON",
          problems: [{ problem: "topic gone is missing", count: 1, first: "x", last: "y" }],
        },
      ),
    );
    expect(items.map((i) => [i.level, i.kind, i.what])).toEqual([
      [
        "act",
        "drained",
        "1.0.0 of event is drained: nothing declared or needed it for the whole drain window, with every partition observed",
      ],
      ["act", "not-ready", "the monitor is not ready: no partition assigned"],
      ["act", "registry-down", "registry main does not answer since 2026-12-02T09:00:00.000Z"],
      ["watch", "state", "the lifecycle state could not be read: state.json: not JSON"],
      ["watch", "problem", "topic gone is missing"],
    ]);
  });
});
