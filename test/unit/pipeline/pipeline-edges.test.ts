// The pipeline across a catalog reload (a candidate version added while records flow), around a bug
// in its own code, and with a job runner: the reservoir's records are validated against the new reader
// at once, a record or job that breaks the pipeline is counted where an operator sees it, and jobs are
// reused only once their bytes came back.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { ObservationClock } from "../../../src/pipeline/clock.js";
import { Pipeline, type PipelineHooks } from "../../../src/pipeline/pipeline.js";
import type { ResultMessage, SampleJob } from "../../../src/pipeline/workers/job.js";
import { JobValidator } from "../../../src/pipeline/workers/validate.js";
import {
  decodeCounts,
  eventConfigYaml,
  record,
  recordCounts,
  validationCounts,
} from "../../helpers/monitor.js";

// 2.0.0 retired: not a reader until the reload makes it a candidate again.
const WITHOUT_CANDIDATE = eventConfigYaml().replace(
  '"2.0.0": { status: candidate }',
  '"2.0.0": { status: retired }',
);

const V1 = { id: 1, event: "view" };

async function catalogOf(yaml: string) {
  const config = parseConfig(yaml, resolve("test/config.yaml"));
  return { config, catalog: await loadCatalog(config) };
}

describe("a catalog reload", () => {
  it("validates the reservoir's records against a reader added by the reload, at once, and says so", async () => {
    const { config, catalog } = await catalogOf(WITHOUT_CANDIDATE);
    expect(catalog.subjects.get("event")!.readers.map((r) => r.version.text)).toEqual(["1.0.0", "1.1.0"]);
    const pipeline = new Pipeline(catalog, config);
    pipeline.process(record({ id: 1, event: "view" }, { "schema-version": "1.0", producer: "web" }));
    pipeline.process(
      record({ id: 2, event: "buy", amount: 5 }, { "schema-version": "1.1", producer: "app" }),
    );
    pipeline.process(record({ id: 3, event: "view" }, { producer: "legacy" }));
    // Not JSON: counted, never kept in the reservoir.
    pipeline.process(record(undefined, { producer: "web" }, { raw: Buffer.from("{") }));
    const before = validationCounts(pipeline);

    const heard: string[] = [];
    const { catalog: next } = await catalogOf(eventConfigYaml());
    pipeline.replaceCatalog(next, (subject, entry, reader, result) =>
      heard.push(
        `${subject.subject.name} ${entry.producer} ${entry.writer}>${reader.version.text} ${result.passed ? "pass" : `fail ${result.keyword} ${result.instancePath}`}`,
      ),
    );
    expect(heard).toEqual([
      "event web 1.0.0>2.0.0 fail required ",
      "event app 1.1.0>2.0.0 pass",
      "event legacy none>2.0.0 fail required ",
    ]);
    const added = validationCounts(pipeline).filter((line) => !before.includes(line));
    expect(added).toEqual([
      "app 1.1.0>2.0.0 backward pass=1",
      "legacy none>2.0.0 undeclared fail=1",
      "web 1.0.0>2.0.0 backward fail=1",
    ]);
    // The readers known before are not counted again; the records themselves neither.
    expect(validationCounts(pipeline).filter((line) => !line.includes(">2.0.0"))).toEqual(before);
    expect(recordCounts(pipeline)).toEqual(["app 1.1.0=1", "legacy none=1", "web 1.0.0=1", "web unknown=1"]);
    // The new version's series start at zero before its first record.
    const zero = pipeline.tallies.records.filter((c) => c.labels.writer_version === "2.0.0");
    expect(zero.map((c) => `${c.labels.producer}=${c.value}`).sort()).toEqual(["unknown=0"]);
  });

  it("evaluates nothing when the reload adds no reader, and leaves a subject the new catalog lacks alone", async () => {
    const { config, catalog } = await catalogOf(eventConfigYaml());
    const pipeline = new Pipeline(catalog, config);
    pipeline.process(record({ id: 1, event: "view" }, { "schema-version": "1.0", producer: "web" }));
    const before = validationCounts(pipeline);
    const heard: string[] = [];
    const { catalog: same } = await catalogOf(eventConfigYaml());
    pipeline.replaceCatalog(same, () => heard.push("evaluated"));
    expect(pipeline.subjects.get("event")!.subject).toBe(same.subjects.get("event"));
    pipeline.replaceCatalog({ ...catalog, subjects: new Map() }, () => heard.push("evaluated"));
    expect(pipeline.subjects.get("event")!.subject).toBe(same.subjects.get("event"));
    expect(heard).toEqual([]);
    expect(validationCounts(pipeline)).toEqual(before);
  });
});

describe("a bug in the pipeline", () => {
  it("on a watched topic: internal_error, unknown use at the record's time or the monitor's clock, the error to its hook", async () => {
    const { config, catalog } = await catalogOf(eventConfigYaml());
    const bug = new TypeError("a bug");
    const unread: string[] = [];
    const errors: unknown[] = [];
    const clock = new ObservationClock();
    const pipeline = new Pipeline(catalog, config, {
      clock,
      validated: [
        () => {
          throw bug;
        },
      ],
      unreadable: [
        (s, topic, partition, reason, records, at) =>
          unread.push(`${s.subject.name} ${topic}/${partition} ${reason} ${records} at ${at}`),
      ],
      internalError: (error, r) => errors.push(error, r.offset),
    });
    const first = record({ id: 1, event: "view" }, { "schema-version": "1.0" }, { timestamp: 1000 });
    pipeline.process(first);
    clock.advance(5000);
    const second = { ...record({ id: 1, event: "view" }, { "schema-version": "1.0" }), partition: 3 };
    pipeline.process(second);
    expect(decodeCounts(pipeline)).toEqual(["events internal_error=2"]);
    expect(unread).toEqual([
      "event events/0 internal_error 1 at 1000",
      "event events/3 internal_error 1 at 5000",
    ]);
    expect(errors).toEqual([bug, first.offset, bug, second.offset]);
  });

  it("on a topic no subject watches (a bug before the lookup): internal_error of the unknown topic only", async () => {
    const { config, catalog } = await catalogOf(eventConfigYaml());
    const unread: string[] = [];
    const errors: unknown[] = [];
    const pipeline = new Pipeline(catalog, config, {
      unreadable: [(_s, topic) => unread.push(topic)],
      internalError: (error) => errors.push(error),
    });
    // A record whose topic throws when read: the pipeline's first step fails.
    let reads = 0;
    const broken = {
      ...record({ id: 1 }),
      get topic(): string {
        if (reads++ === 0) throw new RangeError("unreadable topic");
        return "elsewhere";
      },
    };
    pipeline.process(broken);
    expect(decodeCounts(pipeline)).toEqual(["unknown internal_error=1"]);
    expect(unread).toEqual([]);
    expect(errors).toEqual([new RangeError("unreadable topic")]);
  });
});

describe("the pipeline with a job runner", () => {
  /** The event pipeline with a runner that validates with the workers' code, seeing every job. */
  async function withRunner(
    answer?: (job: SampleJob, id: number) => Promise<ResultMessage>,
    hooks: PipelineHooks = {},
  ) {
    const { config, catalog } = await catalogOf(eventConfigYaml());
    const validator = new JobValidator([catalog.subjects.get("event")!], 1, false);
    const jobs: SampleJob[] = [];
    let id = 0;
    const pipeline = new Pipeline(catalog, config, {
      ...hooks,
      runner: {
        validate: async (job) => {
          jobs.push(job);
          return answer ? answer(job, ++id) : validator.validate(job.message(++id));
        },
      },
    });
    return { pipeline, jobs };
  }

  it("reuses a job whose bytes came back, and never one still out", async () => {
    const { pipeline, jobs } = await withRunner();
    for (let flush = 0; flush < 3; flush++) {
      pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
      await pipeline.flush();
    }
    expect(jobs).toHaveLength(3);
    expect(jobs[1]).not.toBe(jobs[0]);
    expect(jobs[2]).toBe(jobs[0]);
    expect(validationCounts(pipeline)).toContain("web 1.0.0>1.0.0 conformance pass=3");
  });

  it("does not reuse a job whose worker died with it", async () => {
    let calls = 0;
    // A worker that exits is not a bug of the pipeline: counted, not reported as one.
    const errors: unknown[] = [];
    const { pipeline, jobs } = await withRunner(() => Promise.reject(new Error(`worker exit ${++calls}`)), {
      internalError: (error) => errors.push(error),
    });
    for (let flush = 0; flush < 3; flush++) {
      pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
      await pipeline.flush();
    }
    expect(new Set(jobs).size).toBe(3);
    expect(errors).toEqual([]);
    expect(decodeCounts(pipeline)).toEqual(["events internal_error=3"]);
  });

  it("counts a job whose result cannot be applied as internal_error, and names its first record's partition", async () => {
    const errors: string[] = [];
    const unread: string[] = [];
    const { pipeline, jobs } = await withRunner(async () => ({}) as ResultMessage, {
      internalError: (error, r) => errors.push(`${(error as Error).name} ${JSON.stringify(r)}`),
      unreadable: [(_s, topic, partition, reason) => unread.push(`${topic}/${partition} ${reason}`)],
    });
    pipeline.process({ ...record(V1, { producer: "legacy" }), partition: 4 });
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    await pipeline.flush();
    expect(decodeCounts(pipeline)).toEqual(["events internal_error=2"]);
    expect(unread).toEqual(["events/4 internal_error"]);
    expect(errors).toEqual([
      'TypeError {"topic":"events","partition":4,"offset":"","timestamp":0,"key":null,"value":null}',
    ]);
    expect(pipeline.pendingValidations).toBe(0);
    // Lost with its results: not reused.
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    await pipeline.flush();
    expect(jobs[1]).not.toBe(jobs[0]);
  });

  it("validates here, without a job, a subject the runner says it validates here", async () => {
    const { config, catalog } = await catalogOf(eventConfigYaml());
    const asked: string[] = [];
    const pipeline = new Pipeline(catalog, config, {
      runner: {
        validate: () => Promise.reject(new Error("no job expected")),
        validatesHere: (subject) => (asked.push(subject.name), true),
      },
    });
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    expect(pipeline.pendingValidations).toBe(0);
    await pipeline.flush();
    expect(asked).toEqual(["event"]);
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(validationCounts(pipeline)).toContain("web 1.0.0>1.0.0 conformance pass=1");
  });

  it("lists the catalog's subjects by their place in the config, a subject the catalog lacks as a hole", async () => {
    const yaml = eventConfigYaml().replace(
      "subjects:\n",
      `subjects:\n  - name: ghost\n    topics: [ghosts]\n    schemas: ${resolve("examples/catalog/event")}\n`,
    );
    const { config, catalog } = await catalogOf(yaml);
    const pipeline = new Pipeline(
      { ...catalog, subjects: new Map([["event", catalog.subjects.get("event")!]]) },
      config,
    );
    expect(pipeline.catalogSubjects().map((s) => s?.name)).toEqual([undefined, "event"]);
    expect(pipeline.catalogSubjects()).toHaveLength(2);
  });
});

describe("the pipeline without hooks", () => {
  it("counts a bug, an undecodable batch, a skipped record and lost jobs with no hook set, and never throws", async () => {
    const { config, catalog } = await catalogOf(eventConfigYaml("    sampling:\n      ratio: 0.5\n"));
    // Only a validated hook, which breaks: no unreadable or internal-error listener to tell.
    const pipeline = new Pipeline(catalog, config, {
      validated: [
        () => {
          throw new TypeError("a bug");
        },
      ],
    });
    // Undeclared records, every second one skipped by the sampler while 1.0.0 is deprecated; each
    // sampled one is validated and breaks in the hook.
    for (let i = 0; i < 4; i++) pipeline.process(record(V1, { producer: "legacy" }));
    pipeline.undecodableBatch("events", 1, 2);
    expect(decodeCounts(pipeline)).toEqual(["events internal_error=2", "events undecodable_batch=2"]);

    // No hook at all, and workers that exit or answer nonsense.
    let answers = 0;
    const workers = new Pipeline(catalog, config, {
      runner: {
        validate: async () => {
          if (answers++ === 0) throw new Error("the worker exited");
          return {} as ResultMessage;
        },
      },
    });
    workers.undecodableBatch("events", 1, 2);
    for (let flush = 0; flush < 2; flush++) {
      workers.process(record(V1, { producer: "legacy" }));
      workers.process(record(V1, { producer: "legacy" }));
      await workers.flush();
    }
    expect(decodeCounts(workers)).toEqual(["events internal_error=2", "events undecodable_batch=2"]);
  });
});
