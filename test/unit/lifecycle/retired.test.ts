import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it, onTestFinished } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Lifecycle, type LifecycleSubject } from "../../../src/lifecycle/lifecycle.js";
import { retiredRecords, type RetiredRecords } from "../../../src/lifecycle/retired.js";
import { createLogger } from "../../../src/log.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { record } from "../../helpers/monitor.js";

// After a prune: the records of a retired version are counted apart from the moment the version is
// retired (from the start for one retired then), per producer, and warned of once per producer.

const T0 = Date.parse("2026-12-01T08:00:00Z");

/** The bundled `event` catalog with 1.0.0 in `status` (two topics, so sums over topics show). */
async function catalogWith(
  status: "deprecated" | "retired",
  more = "",
  schemas = resolve("examples/catalog/event"),
) {
  const config = parseConfig(
    `subjects:
  - name: event
    topics: [events, events-eu]
    schemas: ${schemas}
    versions:
      "1.0.0": { status: ${status} }
      "1.1.0": { status: active }
${more}`,
    resolve("test/config.yaml"),
  );
  return { config, catalog: await loadCatalog(config) };
}

const v10 = (producer: string, at: number, topic = "events") =>
  record({ id: 1, event: "view" }, { producer, "schema-version": "event/1.0" }, { timestamp: at, topic });
const v11 = (producer: string, at: number) =>
  record({ id: 1, event: "buy", amount: 2 }, { producer, "schema-version": "event/1.1" }, { timestamp: at });

const sorted = (records: RetiredRecords[]) =>
  [...records].sort((a, b) => a.producer.localeCompare(b.producer));

/** A lifecycle of the pipeline's subject on a settable clock, logging into `lines`. */
function lifecycleOf(pipeline: Pipeline) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  let now = T0;
  const subjects = (): LifecycleSubject[] => [
    { subject: pipeline.subjects.get("event")!.subject, drainWindow: 60, readyWindow: 60, minSamples: 1 },
  ];
  const lifecycle = new Lifecycle(subjects(), createLogger("info", sink), () => now);
  return { lifecycle, lines, subjects, setNow: (t: number) => (now = t) };
}

describe("records of a retired version", () => {
  it("count from the start for a version retired then, per producer, summed over topics, 0 for the known ones", async () => {
    const { config, catalog } = await catalogWith("retired");
    const pipeline = new Pipeline(catalog, config);
    pipeline.process(v10("billing", T0 + 1_000));
    pipeline.process(v10("billing", T0 + 2_000, "events-eu"));
    // events' series is read before events-eu's: the latest of the two, not the last read, counts.
    pipeline.process(v10("billing", T0 + 3_000));
    pipeline.process(v10("web", T0 + 4_000));
    pipeline.process(v11("web", T0 + 5_000));
    expect(sorted(retiredRecords(pipeline.tallies.allSeries))).toEqual([
      { subject: "event", version: "1.0.0", producer: "billing", records: 3, lastAt: T0 + 3_000 },
      // every series known before traffic starts at 0: zero is a value
      { subject: "event", version: "1.0.0", producer: "unknown", records: 0, lastAt: 0 },
      { subject: "event", version: "1.0.0", producer: "web", records: 1, lastAt: T0 + 4_000 },
    ]);
  });

  it("are none while no version is retired", async () => {
    const { config, catalog } = await catalogWith("deprecated");
    const pipeline = new Pipeline(catalog, config);
    pipeline.process(v10("billing", T0));
    expect(retiredRecords(pipeline.tallies.allSeries)).toEqual([]);
  });

  it("count only what came after a reload retired the version, dated by the lifecycle's clock", async () => {
    const before = await catalogWith("deprecated");
    const after = await catalogWith("retired");
    const pipeline = new Pipeline(before.catalog, before.config);
    const { lifecycle, subjects, setNow } = lifecycleOf(pipeline);
    pipeline.process(v10("billing", T0 + 1_000));
    pipeline.process(v10("billing", T0 + 2_000));

    setNow(T0 + 60_000);
    pipeline.replaceCatalog(after.catalog);
    lifecycle.replaceSubjects(subjects());
    expect(lifecycle.retired.since("event", "1.0.0")).toBe(T0 + 60_000);
    expect(lifecycle.retired.since("event", "1.1.0")).toBeUndefined();
    // billing's records before the retirement are neither counted nor its last retired record.
    expect(sorted(retiredRecords(pipeline.tallies.allSeries))).toEqual([
      { subject: "event", version: "1.0.0", producer: "billing", records: 0, lastAt: 0 },
      { subject: "event", version: "1.0.0", producer: "unknown", records: 0, lastAt: 0 },
    ]);
    pipeline.process(v10("billing", T0 + 70_000));
    expect(sorted(retiredRecords(pipeline.tallies.allSeries))[0]).toEqual({
      subject: "event",
      version: "1.0.0",
      producer: "billing",
      records: 1,
      lastAt: T0 + 70_000,
    });

    // Brought back (deprecated again): no date, no more counting, and the counter stays where it was.
    pipeline.replaceCatalog(before.catalog);
    lifecycle.replaceSubjects(subjects());
    pipeline.process(v10("billing", T0 + 80_000));
    expect(lifecycle.retired.since("event", "1.0.0")).toBeUndefined();
    expect(retiredRecords(pipeline.tallies.allSeries)).toEqual([
      { subject: "event", version: "1.0.0", producer: "billing", records: 1, lastAt: 0 },
    ]);
  });

  it("are warned of once per subject, version and producer, never with a record's contents", async () => {
    const before = await catalogWith("deprecated");
    const after = await catalogWith("retired");
    const pipeline = new Pipeline(before.catalog, before.config);
    const { lifecycle, lines, subjects, setNow } = lifecycleOf(pipeline);
    setNow(Date.parse("2026-12-09T10:03:00Z"));
    pipeline.replaceCatalog(after.catalog);
    lifecycle.replaceSubjects(subjects());
    const observe = () => lifecycle.retired.observe(retiredRecords(pipeline.tallies.allSeries));

    observe(); // nothing sent yet: nothing said
    for (let i = 0; i < 3; i++) pipeline.process(v10("billing", T0 + i));
    observe();
    pipeline.process(v10("billing", T0 + 10));
    pipeline.process(v10("web", T0 + 11));
    observe();
    observe();
    const warnings = lines.map(({ time: _time, ...line }) => line);
    expect(warnings).toEqual([
      {
        level: 40,
        service: "schemawatch",
        subject: "event",
        version: "1.0.0",
        producer: "billing",
        records: 3,
        retiredAt: "2026-12-09T10:03:00.000Z",
        msg: "producer billing still sends event 1.0.0, retired on 2026-12-09T10:03Z",
      },
      {
        level: 40,
        service: "schemawatch",
        subject: "event",
        version: "1.0.0",
        producer: "web",
        records: 1,
        retiredAt: "2026-12-09T10:03:00.000Z",
        msg: "producer web still sends event 1.0.0, retired on 2026-12-09T10:03Z",
      },
    ]);

    // Brought back and retired again: a new retirement, warned of again.
    pipeline.replaceCatalog(before.catalog);
    lifecycle.replaceSubjects(subjects());
    setNow(Date.parse("2026-12-10T09:00:00Z"));
    pipeline.replaceCatalog(after.catalog);
    lifecycle.replaceSubjects(subjects());
    pipeline.process(v10("billing", T0 + 20));
    observe();
    expect(lines.slice(2).map((l) => [l["msg"], l["records"]])).toEqual([
      ["producer billing still sends event 1.0.0, retired on 2026-12-10T09:00Z", 5],
    ]);
  });

  it("keep their date and warnings through a reload that changes nothing; a version new and retired has no date", async () => {
    // Before the reload the folder has no 2.0: the reload brings it in, retired from the start.
    const withoutTwo = await mkdtemp(join(tmpdir(), "retired-"));
    onTestFinished(() => rm(withoutTwo, { recursive: true, force: true }));
    for (const file of ["1.0.json", "1.1.json"])
      await copyFile(resolve("examples/catalog/event", file), join(withoutTwo, file));
    const before = await catalogWith("deprecated", "", withoutTwo);
    const after = await catalogWith("retired", '      "2.0.0": { status: retired }\n');
    expect(before.catalog.subjects.get("event")!.byVersion.has("2.0.0")).toBe(false);
    const pipeline = new Pipeline(before.catalog, before.config);
    const { lifecycle, lines, subjects, setNow } = lifecycleOf(pipeline);
    const observe = () => lifecycle.retired.observe(retiredRecords(pipeline.tallies.allSeries));
    setNow(T0 + 60_000);
    pipeline.replaceCatalog(after.catalog);
    lifecycle.replaceSubjects(subjects());
    expect(lifecycle.retired.since("event", "1.0.0")).toBe(T0 + 60_000);
    // 2.0.0 was never seen before it was retired: when it was retired is not known.
    expect(lifecycle.retired.since("event", "2.0.0")).toBeUndefined();
    pipeline.process(v10("billing", T0 + 61_000));
    observe();

    setNow(T0 + 120_000);
    pipeline.replaceCatalog(after.catalog);
    lifecycle.replaceSubjects(subjects());
    expect(lifecycle.retired.since("event", "1.0.0")).toBe(T0 + 60_000);
    pipeline.process(v10("billing", T0 + 121_000));
    observe();
    expect(lines.map((l) => [l["msg"], l["records"]])).toEqual([
      ["producer billing still sends event 1.0.0, retired on 2026-12-01T08:01Z", 1],
    ]);
  });

  it("keep the date of a retirement through a restart, unless the version came back meanwhile", async () => {
    const before = await catalogWith("deprecated");
    const after = await catalogWith("retired");
    const first = lifecycleOf(new Pipeline(before.catalog, before.config));
    first.setNow(T0 + 60_000);
    first.lifecycle.replaceSubjects([
      { ...first.subjects()[0]!, subject: after.catalog.subjects.get("event")! },
    ]);
    const saved = JSON.parse(JSON.stringify(first.lifecycle.toState())) as ReturnType<Lifecycle["toState"]>;
    expect(saved.retiredSince).toEqual({ event: { "1.0.0": T0 + 60_000 } });

    // Restarted with 1.0.0 still retired: the alarm still names the day it was retired.
    const again = lifecycleOf(new Pipeline(after.catalog, after.config));
    again.lifecycle.restore(saved);
    expect(again.lifecycle.retired.since("event", "1.0.0")).toBe(T0 + 60_000);
    // Restarted with 1.0.0 brought back while the monitor was down: no date to carry.
    const back = lifecycleOf(new Pipeline(before.catalog, before.config));
    back.lifecycle.restore(saved);
    expect(back.lifecycle.retired.since("event", "1.0.0")).toBeUndefined();
  });

  it("say 'which is retired' in the warning when the version was retired before the monitor started", async () => {
    const { config, catalog } = await catalogWith("retired");
    const pipeline = new Pipeline(catalog, config);
    const { lifecycle, lines } = lifecycleOf(pipeline);
    pipeline.process(v10("billing", T0));
    lifecycle.retired.observe(retiredRecords(pipeline.tallies.allSeries));
    expect(lines.map((l) => [l["msg"], l["retiredAt"]])).toEqual([
      ["producer billing still sends event 1.0.0, which is retired", null],
    ]);
  });
});
