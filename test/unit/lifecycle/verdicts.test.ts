import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

import { zeroFailureUpperBound } from "../../../src/lifecycle/evidence.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";
import { replayed } from "../../helpers/replay.js";

const T0 = Date.parse("2026-12-01T08:00:00Z");

interface Line {
  t: number;
  producer: string;
  version?: string;
  value: unknown;
  partition?: number;
}

/** A capture where each partition's offsets are contiguous. */
function capture(lines: Line[]): string {
  const next = new Map<number, number>();
  return (
    lines
      .map((l) => {
        const partition = l.partition ?? 0;
        const offset = next.get(partition) ?? 0;
        next.set(partition, offset + 1);
        return JSON.stringify({
          topic: "events",
          partition,
          offset,
          timestamp: T0 + l.t * 1000,
          headers: { producer: l.producer, ...(l.version ? { "schema-version": l.version } : {}) },
          value: l.value,
        });
      })
      .join("\n") + "\n"
  );
}

const CONFIG = `logLevel: silent
subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    drainWindow: 60s
    readyWindow: 60s
    minSamples: 20
`;

/** `extraConfig` goes before the config, `subjectExtra` into the subject (after minSamples). */
async function replay(lines: Line[], extraConfig = "", subjectExtra = "") {
  const dir = await writeTree({
    "config.yaml": extraConfig + CONFIG + subjectExtra,
    "capture.ndjson": capture(lines),
  });
  const monitor = await replayed(dir);
  const report = monitor.report();
  await monitor.stop();
  const versions = Object.fromEntries(report.subjects[0]!.versions.map((v) => [v.version, v]));
  return { dir, report, versions };
}

/**
 * 1.1 renamed id to key: an undeclared record with only `id` passes 1.0 and fails 1.1. The config with
 * 1.0.0 in the given status and no candidate.
 */
const RENAMED_ID = {
  "schemas/1.0.json": {
    $id: "https://example.com/event/1.0.json",
    type: "object",
    properties: { id: { type: "integer" } },
  },
  "schemas/1.1.json": { $id: "https://example.com/event/1.1.json", type: "object", required: ["key"] },
};
const renamedIdConfig = (status: "active" | "deprecated") =>
  CONFIG.replace(resolve("examples/catalog/event"), "schemas")
    .replace('"1.0.0": { status: deprecated }', `"1.0.0": { status: ${status} }`)
    .replace('      "2.0.0": { status: candidate }\n', "");

const view = (id: number) => ({ id, event: "view" });
const paid = (id: number) => ({ id, event: "buy", amount: 5 });

describe("drained", () => {
  it("a deprecated version with no record for the whole window, with every partition covered, is drained", async () => {
    const lines: Line[] = [];
    for (let t = 0; t < 10; t++) lines.push({ t, producer: "web", version: "1.0", value: view(t) });
    for (let t = 10; t <= 100; t++) lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
    const { versions } = await replay(lines);
    const verdict = versions["1.0.0"]!.verdict!;
    expect(verdict.reasons).toEqual([]);
    expect(verdict.yes).toBe(true);
    expect(verdict.evidence).toEqual({
      window: "1m",
      coveredSince: "2026-12-01T08:00Z",
      partitions: 1,
      lastDeclared: "2026-12-01T08:00Z",
      lastDeclaredBy: "web",
      undeclaredDependents: 0,
      unreadableRecords: 0,
      registryDownSince: null,
    });
  });

  it("records whose version cannot be read keep every deprecated version from draining, and say so", async () => {
    // The payload pointer (default last source) is where these records would declare a version, but
    // their payloads are too large or not JSON: unknown use, not absence.
    const lines: Line[] = [];
    for (let t = 0; t < 10; t++) lines.push({ t, producer: "web", version: "1.0", value: view(t) });
    for (let t = 10; t <= 100; t++) lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
    for (const t of [60, 70, 80])
      lines.push({ t, producer: "batch", value: { base64: Buffer.alloc(300, 0x20).toString("base64") } });
    lines.push({ t: 90, producer: "batch", value: { base64: Buffer.from("{not json").toString("base64") } });
    lines.sort((a, b) => a.t - b.t);
    const { versions, report } = await replay(lines, "maxRecordBytes: 256\n");
    const verdict = versions["1.0.0"]!.verdict!;
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons).toEqual([
      "1 record on events/0 could not be read (not_json) since 2026-12-01T08:01Z, the last one 10s ago: their version is unknown, so 1.0.0 may still be in use",
      "3 records on events/0 could not be read (too_large) since 2026-12-01T08:01Z, the last one 20s ago: their version is unknown, so 1.0.0 may still be in use",
    ]);
    expect(verdict.evidence["unreadableRecords"]).toBe(4);
    expect(report.subjects[0]!.unreadable).toBe(4);
    expect(report.subjects[0]!.unknownUse).toEqual([
      {
        topic: "events",
        partition: 0,
        reason: "not_json",
        records: 1,
        first: "2026-12-01T08:01:30.000Z",
        last: "2026-12-01T08:01:30.000Z",
      },
      {
        topic: "events",
        partition: 0,
        reason: "too_large",
        records: 3,
        first: "2026-12-01T08:01:00.000Z",
        last: "2026-12-01T08:01:20.000Z",
      },
    ]);
  });

  it("a too-large record that declares its version in a header counts for that version", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
    lines.push({
      t: 95,
      producer: "legacy",
      version: "1.0",
      value: { base64: Buffer.alloc(300, 0x20).toString("base64") },
    });
    lines.sort((a, b) => a.t - b.t);
    const { versions } = await replay(lines, "maxRecordBytes: 256\n");
    expect(versions["1.0.0"]!.records).toBe(1);
    expect(versions["1.0.0"]!.verdict!.reasons).toEqual(["last seen 5s ago from producer legacy"]);
  });

  it("unreadable records older than the window no longer block the verdict", async () => {
    const lines: Line[] = [
      { t: 0, producer: "batch", value: { base64: Buffer.from("nope").toString("base64") } },
    ];
    for (let t = 1; t <= 100; t++) lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
    const { versions } = await replay(lines);
    expect(versions["1.0.0"]!.verdict!.reasons).toEqual([]);
    expect(versions["1.0.0"]!.verdict!.yes).toBe(true);
  });

  it("says why not: last seen from which producer, and a coverage gap until when", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 40; t++) lines.push({ t, producer: "checkout", version: "1.0", value: view(t) });
    lines.push({ t: 55, producer: "mobile", version: "1.1", value: paid(1) });
    const { versions } = await replay(lines);
    expect(versions["1.0.0"]!.verdict!.reasons).toEqual([
      "last seen 15s ago from producer checkout",
      "coverage gap on events/0 until 2026-12-01T08:01Z",
    ]);
  });

  it("goes back to in use when traffic returns to a drained version", async () => {
    const lines: Line[] = [{ t: 0, producer: "web", version: "1.0", value: view(0) }];
    for (let t = 1; t <= 100; t++) lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
    lines.push({ t: 101, producer: "web", version: "1.0", value: view(101) });
    const { versions } = await replay(lines);
    expect(versions["1.0.0"]!.verdict!.yes).toBe(false);
    expect(versions["1.0.0"]!.verdict!.reasons).toEqual(["last seen just now from producer web"]);
  });

  it("keeps a deprecated version in use while undeclared records pass it and fail every newer active one", async () => {
    const dir = await writeTree({
      ...RENAMED_ID,
      "config.yaml": renamedIdConfig("deprecated"),
      "capture.ndjson": capture([
        ...Array.from({ length: 5 }, (_, t) => ({ t, producer: "legacy", value: { id: t } })),
        ...Array.from({ length: 100 }, (_, t) => ({
          t: t + 5,
          producer: "mobile",
          version: "1.1",
          value: { key: "k" },
        })),
      ]),
    });
    const monitor = await replayed(dir);
    const verdict = monitor.report().subjects[0]!.versions[0]!.verdict!;
    await monitor.stop();
    expect(verdict.evidence["undeclaredDependents"]).toBe(5);
    // The last dependent record came at t=4 and the capture ends at t=104: outside the 60 s window.
    expect(verdict.yes).toBe(true);
  });

  it("keeps what undeclared records needed while a version was active, once a reload deprecates it", async () => {
    const dir = await writeTree({
      ...RENAMED_ID,
      "config.yaml": renamedIdConfig("active"),
      "capture.ndjson": capture(
        [
          ...Array.from({ length: 100 }, (_, t) => ({
            t,
            producer: "mobile",
            version: "1.1",
            value: { key: "k" },
          })),
          // the last one at t=60, 39 s before the capture ends: inside the 60 s window
          ...Array.from({ length: 7 }, (_, i) => ({ t: i * 10, producer: "legacy", value: { id: i } })),
        ].sort((a, b) => a.t - b.t),
      ),
    });
    const monitor = await replayed(dir);
    await writeFile(`${dir}/config.yaml`, renamedIdConfig("deprecated"));
    expect(await monitor.reload()).toEqual({ ok: true });
    const verdict = monitor.report().subjects[0]!.versions[0]!.verdict!;
    await monitor.stop();
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons).toEqual([
      "undeclared records still need it (they pass 1.0.0 and fail every newer active version): 7 so far, last one 39s ago",
    ]);
  });

  it("keeps every deprecated version in use while undeclared records go unvalidated by the sampler", async () => {
    const lines: Line[] = [];
    for (let t = 0; t < 10; t++) lines.push({ t, producer: "web", version: "1.0", value: view(t) });
    for (let t = 10; t <= 100; t++) lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
    // two undeclared records at t=70 and two at t=80: at ratio 0.5 one of each pair is validated
    for (const t of [70, 70, 80, 80]) lines.push({ t, producer: "legacy", value: view(t) });
    lines.sort((a, b) => a.t - b.t);
    const { versions } = await replay(lines, "", "    sampling:\n      ratio: 0.5\n");
    const verdict = versions["1.0.0"]!.verdict!;
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons).toEqual([
      "2 records on events/0 declared no version and were not sampled for validation since 2026-12-01T08:01Z, the last one 20s ago: they may need 1.0.0",
    ]);
    // the validated ones pass 1.1.0 too: not a dependent
    expect(verdict.evidence["undeclaredDependents"]).toBe(0);
  });

  it("does not count undeclared records that a newer active version accepts too", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) lines.push({ t, producer: "legacy", value: view(t) });
    const { versions } = await replay(lines);
    expect(versions["1.0.0"]!.verdict!.evidence["undeclaredDependents"]).toBe(0);
    expect(versions["1.0.0"]!.verdict!.yes).toBe(true);
  });

  it("covers every partition a capture holds from its first record", async () => {
    const lines: Line[] = [{ t: 0, producer: "web", version: "1.0", value: view(0), partition: 1 }];
    for (let t = 1; t <= 100; t++)
      lines.push({ t, producer: "mobile", version: "1.1", value: paid(t), partition: 0 });
    const { versions } = await replay(lines);
    expect(versions["1.0.0"]!.verdict!.reasons).toEqual([]);
    // Both partitions appear in the capture, so both are covered from their first record on.
  });
});

describe("ready", () => {
  it("a candidate that requires amount becomes ready once the last producer sends it", async () => {
    const lines: Line[] = [];
    for (let t = 0; t < 30; t++) {
      lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
      lines.push({ t, producer: "web", version: "1.0", value: view(t) });
    }
    // From t=30 web sends amount too (step one of "make required in two steps").
    for (let t = 30; t <= 100; t++) {
      lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
      lines.push({ t, producer: "web", version: "1.1", value: paid(t) });
    }
    const { versions } = await replay(lines);
    const verdict = versions["2.0.0"]!.verdict!;
    expect(verdict.reasons).toEqual([]);
    expect(verdict.yes).toBe(true);
    expect(verdict.evidence["samples"]).toBe(202);
    expect(verdict.evidence["failures"]).toBe(30);
    expect(verdict.evidence["samplesSinceFailure"]).toBe(142);
    expect(verdict.evidence["upperBound95"]).toBeCloseTo(zeroFailureUpperBound(142), 12);
    expect(verdict.evidence["producers"]).toMatchObject({
      web: { samples: 101, failures: 30, samplesSinceFailure: 71 },
    });
  });

  it("is not ready while a producer still lacks the field, naming it with keyword and path", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) {
      lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
      if (t % 10 === 0) lines.push({ t, producer: "web", version: "1.0", value: view(t) });
    }
    const { versions } = await replay(lines);
    expect(versions["2.0.0"]!.verdict!.reasons).toEqual([
      "producer web: 11 of 11 samples fail 2.0.0 (required at root), last one just now",
      "0 samples without a failure; 20 needed",
    ]);
  });

  it("readiness exits 0 for a ready candidate, and 2 for a version that has no verdict, offline from a capture", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) lines.push({ t, producer: "mobile", version: "1.1", value: paid(t) });
    const { dir } = await replay(lines);
    const ready = await runCli([
      "readiness",
      "--subject",
      "event",
      "--version",
      "2.0",
      "--config",
      `${dir}/config.yaml`,
      "--source",
      `file:${dir}/capture.ndjson`,
    ]);
    expect(ready.stdout).toBe(
      `event 2.0.0 is ready: 101 samples without a failure bound the failure rate below ${(zeroFailureUpperBound(101) * 100).toFixed(2)}% (95%)\n`,
    );
    expect(ready.code).toBe(0);
    const drained = await runCli([
      "readiness",
      "--subject",
      "event",
      "--version",
      "1.1.0",
      "--config",
      `${dir}/config.yaml`,
      "--source",
      `file:${dir}/capture.ndjson`,
    ]);
    expect(drained.code).toBe(2);
    expect(drained.stderr).toContain(
      "event 1.1.0 is active: only candidate (ready) and deprecated (drained) versions have a verdict",
    );
  });

  it("readiness exits 1 with the reasons when not ready", async () => {
    const lines: Line[] = [];
    for (let t = 0; t <= 100; t++) lines.push({ t, producer: "web", version: "1.0", value: view(t) });
    const { dir } = await replay(lines);
    const result = await runCli([
      "readiness",
      "--subject",
      "event",
      "--version",
      "2.0.0",
      "--config",
      `${dir}/config.yaml`,
      "--source",
      `file:${dir}/capture.ndjson`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      "event 2.0.0 is not ready yet:\n  - producer web: 101 of 101 samples fail 2.0.0 (required at root), last one just now\n  - 0 samples without a failure; 20 needed\n",
    );
  });
});

describe("zeroFailureUpperBound", () => {
  it("is the exact binomial bound, about 3/n", () => {
    expect(zeroFailureUpperBound(300)).toBeCloseTo(0.009936, 6);
    expect(zeroFailureUpperBound(0)).toBe(1);
  });
});
