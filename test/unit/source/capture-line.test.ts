import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../../src/report/model.js";
import { CaptureLineError, parseCaptureLine, readTimestamp } from "../../../src/source/capture-line.js";
import { topLevelMembers } from "../../../src/source/members.js";
import { writeTree } from "../../helpers/files.js";
import { replayReport } from "../../helpers/replay.js";

// A capture line is a record or unknown use, never silently dropped (issue 30).

const T0 = Date.parse("2026-12-01T08:00:00Z");

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

const deepValue = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

function line(t: number, version: string | undefined, value: string, partition = 0): string {
  const headers = {
    producer: version === "1.0" ? "web" : "mobile",
    ...(version ? { "schema-version": version } : {}),
  };
  return `{"topic":"events","partition":${partition},"timestamp":${T0 + t * 1000},"headers":${JSON.stringify(headers)},"value":${value}}`;
}

/** 1.0 for 10 s, then 1.1 for 90 s (offsets by line), then the given lines: without them, 1.0 drains. */
async function replayWith(extra: readonly string[]): Promise<Report> {
  const lines: string[] = [];
  for (let t = 0; t < 10; t++) lines.push(line(t, "1.0", '{"id":1,"event":"view"}'));
  for (let t = 10; t <= 100; t++) lines.push(line(t, "1.1", '{"id":1,"event":"buy","amount":5}'));
  const dir = await writeTree({
    "config.yaml": CONFIG,
    "capture.ndjson": [...lines, ...extra].join("\n") + "\n",
  });
  const report = await replayReport(dir);
  return report;
}

const v10 = (report: Report) => report.subjects[0]!.versions.find((v) => v.version === "1.0.0")!;

describe("a capture line", () => {
  it("holding a record nested 5,000 levels deep is that record: counted for the version it declares", async () => {
    expect(v10(await replayWith([])).verdict!.yes).toBe(true);
    for (const depth of [300, 5_000, 100_000]) {
      const report = await replayWith([line(100, "1.0", deepValue(depth))]);
      expect([depth, v10(report).records, v10(report).verdict!.reasons[0]]).toEqual([
        depth,
        11,
        "last seen just now from producer web",
      ]);
      expect([depth, report.decodeErrors]).toEqual([depth, { events: { too_deep: 1 } }]);
    }
  });

  it("holding a deep record that declares no version is unknown use on its partition", async () => {
    const report = await replayWith([line(100, undefined, deepValue(5_000))]);
    expect(v10(report).verdict!.yes).toBe(false);
    expect(report.subjects[0]!.unknownUse.map((u) => [u.topic, u.partition, u.reason, u.records])).toEqual([
      ["events", 0, "too_deep", 1],
    ]);
  });

  it("that is no record is unknown use on the partition it names, or on the capture's topics", async () => {
    const cases: Array<[string, number]> = [
      // Cut short (a capture written while it was killed): the topic and partition are read all the same.
      [`{"topic":"events","partition":2,"timestamp":${T0 + 100_000},"value":{"id":`, 2],
      [`{"topic":"events","partition":3,"headers":[1],"value":{}}`, 3],
      [`{"topic":"events","partition":3,"offset":"x","value":{}}`, 3],
      [`{"topic":"events","value":{},"timestamp":${T0},"headers":{"producer":{"no":1}}}`, 0],
      // Neither topic nor partition: every topic of the capture, at its default partition.
      ["not json at all", 0],
      [`{"partition":4,"value":{}}`, 0],
      ["[1,2]", 0],
    ];
    for (const [bad, partition] of cases) {
      const report = await replayWith([bad]);
      expect([bad, v10(report).verdict!.yes, report.subjects[0]!.unreadable]).toEqual([bad, false, 1]);
      expect([bad, report.subjects[0]!.unknownUse.map((u) => [u.topic, u.partition, u.reason])]).toEqual([
        bad,
        [["events", partition, "invalid_capture_line"]],
      ]);
      expect([bad, report.decodeErrors]).toEqual([bad, { events: { invalid_capture_line: 1 } }]);
    }
  });
});

describe("parseCaptureLine", () => {
  it("reads every form of a timestamp: a number, digits (kafkajs), ISO-8601; else missing or unreadable", () => {
    expect(readTimestamp(T0)).toBe(T0);
    expect(readTimestamp(String(T0))).toBe(T0);
    expect(readTimestamp(` ${T0} `)).toBe(T0);
    expect(readTimestamp("2026-12-01T08:00:00Z")).toBe(T0);
    expect(readTimestamp(T0 + 0.7)).toBe(T0);
    expect(readTimestamp(-1)).toBe(-1);
    expect(readTimestamp(8.64e15)).toBe(8.64e15);
    for (const missing of [undefined, null]) expect(readTimestamp(missing)).toBe("missing");
    for (const bad of [9e15, "9000000000000000", -9e15, Infinity, NaN, "soon", "", true, {}, [T0]])
      expect([bad, readTimestamp(bad)]).toEqual([bad, "unreadable"]);
  });

  it("keeps the producer's timestamp on the record, and -1 (Kafka's none) when there is none to read", () => {
    const read = parseCaptureLine(`{"topic":"t","timestamp":"${T0}","value":1}`, 7);
    expect(read).toMatchObject({ timestamp: T0, record: { timestamp: T0, offset: "7", partition: 0 } });
    const refused = parseCaptureLine(`{"topic":"t","timestamp":9e15,"value":1}`, 7);
    expect(refused).toMatchObject({ timestamp: "unreadable", record: { timestamp: -1 } });
  });

  it("takes a value too deep to serialize again as the line wrote it", () => {
    const value = deepValue(100_000);
    const read = parseCaptureLine(`{"topic":"t","value": ${value} ,"offset":3}`, 1);
    expect(read.record.value!.toString()).toBe(value);
    expect(read.record.offset).toBe("3");
  });

  it("names what it could still read of a line that is no record, never its content", () => {
    const error = (text: string) => {
      try {
        parseCaptureLine(text, 1);
      } catch (e) {
        return e instanceof CaptureLineError ? [e.message, e.topic, e.partition] : e;
      }
      return "parsed";
    };
    expect(error(`{"topic":"a\\"b","partition":2,"value":{"secret":`)).toEqual(["not valid JSON", 'a"b', 2]);
    expect(error(`{"value":{"topic":"inner"},"topic":"outer","partition":-1`)).toEqual([
      "not valid JSON",
      "outer",
      undefined,
    ]);
    expect(error(`{"topic":"t","partition":1.5}`)).toEqual([
      "partition must be a non-negative integer",
      "t",
      undefined,
    ]);
    expect(error(`{"topic":"t","offset":-2}`)).toEqual(["offset must be a non-negative integer", "t", 0]);
    expect(error(`{"topic":7}`)).toEqual(["missing topic", undefined, 0]);
  });

  it("finds top-level members without recursing, and stops where a line is cut", () => {
    const text = `{"a": [1, {"b": "]}"}], "c" : "x\\"y", "d": 12 , "a": true}`;
    expect([...topLevelMembers(text)].map(([k, [s, e]]) => [k, text.slice(s, e)])).toEqual([
      ["a", "true"],
      ["c", '"x\\"y"'],
      ["d", "12"],
    ]);
    expect([...topLevelMembers(`{"a":1,"b":[[`).keys()]).toEqual(["a"]);
    expect([...topLevelMembers(`{"a":12`).keys()]).toEqual([]);
    expect([...topLevelMembers(`[1]`).keys()]).toEqual([]);
  });
});
