import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../../src/report/model.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { replayReport } from "../../helpers/replay.js";

// A capture's clock (issue 30): `report` and `readiness` on a capture never believe a timestamp that
// would move the drain window past the capture's own traffic, and read every form a timestamp takes.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const DAY = 86_400_000;

const CONFIG = `logLevel: silent
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    drainWindow: 60s
`;

interface Line {
  /** The timestamp as the line holds it (undefined: no `timestamp` member). */
  readonly timestamp: unknown;
  readonly version: "1.0" | "1.1";
  readonly partition?: number;
}

/** Seconds after T0, as a capture line's number. */
const at = (seconds: number) => T0 + seconds * 1000;
const old = (line: Omit<Line, "timestamp">, timestamp: unknown): Line => ({ ...line, timestamp });

/** 1.0 for 10 s, then 1.1 for 90 s: 1.0 is drained, the capture's traffic having gone on past 60 s. */
function drainedTraffic(): Line[] {
  const lines: Line[] = [];
  for (let t = 0; t < 10; t++) lines.push({ timestamp: at(t), version: "1.0" });
  for (let t = 10; t <= 100; t++) lines.push({ timestamp: at(t), version: "1.1" });
  return lines;
}

function capture(lines: readonly Line[]): string {
  const next = new Map<number, number>();
  return (
    lines
      .map((l) => {
        const partition = l.partition ?? 0;
        const offset = next.get(partition) ?? 0;
        next.set(partition, offset + 1);
        const producer = l.version === "1.0" ? "web" : "mobile";
        const value =
          l.version === "1.0" ? { id: offset, event: "view" } : { id: offset, event: "buy", amount: 5 };
        return JSON.stringify({
          topic: "events",
          partition,
          offset,
          ...(l.timestamp === undefined ? {} : { timestamp: l.timestamp }),
          headers: { producer, "schema-version": l.version },
          value,
        });
      })
      .join("\n") + "\n"
  );
}

async function replay(lines: readonly Line[]): Promise<{ dir: string; report: Report }> {
  const dir = await writeTree({ "config.yaml": CONFIG, "capture.ndjson": capture(lines) });
  const report = await replayReport(dir);
  return { dir, report };
}

const verdictOf = (report: Report) =>
  report.subjects[0]!.versions.find((v) => v.version === "1.0.0")!.verdict!;

async function readiness(dir: string) {
  return runCli([
    "readiness",
    ...["--subject", "event", "--version", "1.0", "--config", `${dir}/config.yaml`],
    ...["--source", `file:${dir}/capture.ndjson`],
  ]);
}

describe("a capture's clock", () => {
  it("holds the control case: 1.0 gone for 90 s of a 60 s window is drained", async () => {
    const { report } = await replay(drainedTraffic());
    expect(verdictOf(report)).toMatchObject({ yes: true, reasons: [] });
  });

  it("is not drained when the capture ends with the version, whatever old timestamps its last records carry", async () => {
    // MirrorMaker and backfills keep a record's timestamp: the last records are 400 days, a year, an
    // hour "old", yet the capture read them last.
    for (const ago of [400 * DAY, 365 * DAY, 3_600_000]) {
      const lines = [...drainedTraffic(), old({ version: "1.0" }, at(100) - ago)];
      const { dir, report } = await replay(lines);
      expect([ago, verdictOf(report).yes, verdictOf(report).reasons[0]]).toEqual([
        ago,
        false,
        "last seen just now from producer web",
      ]);
      const cli = await readiness(dir);
      expect([ago, cli.code]).toEqual([ago, 1]);
      expect(cli.stdout).toContain("last seen just now from producer web");
      // 400 and 365 days are behind the clock by more than 5 minutes; an hour is too.
      expect([ago, cli.stderr]).toEqual([
        ago,
        "note: capture timestamps more than 5 minutes behind the capture's clock (out of order): not believed, observed at the capture's clock (first on line 102) (1×)\n",
      ]);
    }
  });

  it("is not drained when a record stamped in the future is followed by the version's records", async () => {
    // One record stamped 2100 (or a day ahead of the rest, or an hour) anywhere before 1.0's last records.
    for (const ahead of [Date.UTC(2100, 0, 1) - at(50), DAY, 3_600_000]) {
      for (const where of [0, 50]) {
        const lines: Line[] = [];
        for (let t = 0; t <= 50; t++) lines.push({ timestamp: at(t), version: "1.1" });
        lines.splice(where, 0, { timestamp: at(50) + ahead, version: "1.1" });
        for (let t = 51; t <= 55; t++) lines.push({ timestamp: at(t), version: "1.0" });
        const { report } = await replay(lines);
        expect([ahead, where, verdictOf(report).yes, verdictOf(report).reasons[0]]).toEqual([
          ahead,
          where,
          false,
          "last seen just now from producer web",
        ]);
      }
    }
  });

  it("counts the timestamps it did not believe, and names their first line in the report's problems", async () => {
    const lines = [
      ...drainedTraffic().slice(0, 50),
      { timestamp: Date.UTC(2100, 0, 1), version: "1.1" as const },
      ...drainedTraffic().slice(50),
      old({ version: "1.1" }, 1000),
      old({ version: "1.1" }, at(100) - 400 * DAY),
    ];
    const { report } = await replay(lines);
    expect(report.problems.map((p) => [p.problem, p.count]).sort()).toEqual([
      [
        "capture timestamps after the time of the replay: not believed, observed at the capture's clock (first on line 51)",
        1,
      ],
      [
        "capture timestamps before 2000: not believed, observed at the capture's clock (first on line 103)",
        1,
      ],
      [
        "capture timestamps more than 5 minutes behind the capture's clock (out of order): not believed, observed at the capture's clock (first on line 104)",
        1,
      ],
    ]);
  });
});

describe("a capture's timestamp forms", () => {
  it("reads milliseconds as a number, as digits in a string (kafkajs), and as an ISO date, alike", async () => {
    const forms = [
      (ms: number) => ms,
      (ms: number) => String(ms),
      (ms: number) => new Date(ms).toISOString(),
    ];
    for (const [i, form] of forms.entries()) {
      const lines = drainedTraffic().map((l) => ({ ...l, timestamp: form(l.timestamp as number) }));
      const { report } = await replay(lines);
      expect([i, verdictOf(report).yes, verdictOf(report).evidence["coveredSince"]]).toEqual([
        i,
        true,
        "2026-12-01T08:00Z",
      ]);
      expect([i, report.problems]).toEqual([i, []]);
    }
  });

  it("refuses a timestamp out of a date's range (9e15) or of another type with its line number, never an internal error", async () => {
    for (const bad of [9e15, -9e15, "9000000000000000", "soon", true, { ms: 1 }]) {
      const lines = drainedTraffic();
      lines.splice(20, 0, old({ version: "1.1" }, bad));
      const { report } = await replay(lines);
      expect([bad, report.decodeErrors, report.subjects[0]!.records]).toEqual([bad, {}, 102]);
      expect([bad, report.problems.map((p) => p.problem)]).toEqual([
        bad,
        [
          "capture timestamps that are no date (milliseconds as a number or digits, or ISO-8601, within a date's range): not believed, observed at the capture's clock (first on line 21)",
        ],
      ]);
      expect([bad, verdictOf(report).yes]).toEqual([bad, true]);
    }
  });

  it("observes a record without a timestamp at the capture's clock: at the end, it keeps the version in use", async () => {
    for (const missing of [undefined, null]) {
      const lines = [...drainedTraffic(), old({ version: "1.0" }, missing)];
      const { report } = await replay(lines);
      expect([missing, verdictOf(report).reasons[0]]).toEqual([
        missing,
        "last seen just now from producer web",
      ]);
      expect(report.problems.map((p) => p.problem)).toEqual([
        "capture records without a timestamp: not believed, observed at the capture's clock (first on line 102)",
      ]);
    }
  });

  it("renders the report of a capture holding 9e15 and digit strings as text, with exit 0", async () => {
    const lines = drainedTraffic().map((l, i) => ({
      ...l,
      timestamp: i === 5 ? 9e15 : String(l.timestamp),
    }));
    const dir = await writeTree({ "config.yaml": CONFIG, "capture.ndjson": capture(lines) });
    const result = await runCli([
      "report",
      ...["--config", `${dir}/config.yaml`, "--source", `file:${dir}/capture.ndjson`],
    ]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(result.stdout).toContain("(first on line 6)");
  });
});
