// The validation-worker path of the pipeline, without threads: the job validator the workers run,
// called directly, stands in for the thread boundary (the threads themselves run in every integration
// test, which start their monitors with one validation worker, and in test/integration/e2e/crash.test.ts). The
// worker path must count and validate exactly as the in-thread path.
import { describe, expect, it } from "vitest";
import { Corpus } from "../../../../src/corpus/corpus.js";
import { feedCorpus } from "../../../../src/corpus/feed.js";
import type { JobRunner, Pipeline } from "../../../../src/pipeline/pipeline.js";
import type { ValidatedHook } from "../../../../src/pipeline/validated.js";
import type { SampleJob } from "../../../../src/pipeline/workers/job.js";
import { JobValidator } from "../../../../src/pipeline/workers/validate.js";
import { resolve } from "node:path";
import { loadCatalog } from "../../../../src/catalog/load.js";
import { parseConfig } from "../../../../src/config/load.js";
import {
  decodeCounts,
  eventConfigYaml,
  eventPipeline,
  record,
  recordCounts,
  validationCounts,
  wire,
} from "../../../helpers/monitor.js";

const V1 = { id: 1, event: "view" };
const V11 = { id: 2, event: "buy", amount: 5 };

/** A job runner that validates on this thread, with the workers' own code, asynchronously. */
function inThreadRunner(shapes = false): { jobs: number[]; runner: JobRunner } {
  const jobs: number[] = [];
  let validator: JobValidator | undefined;
  let id = 0;
  const runner: JobRunner = {
    validate: async (job, subjects) => {
      jobs.push(job.size);
      validator ??= new JobValidator(subjects, 1, shapes);
      await Promise.resolve();
      return validator.validate(job.message(++id));
    },
  };
  return { jobs, runner };
}

/** A mixed stream: declared versions, the wire prefix, undeclared, broken and deep records. */
function stream() {
  const records = [];
  for (let i = 0; i < 30; i++)
    records.push(record({ ...V1, id: i }, { "schema-version": "1.0", producer: "web" }));
  for (let i = 0; i < 20; i++)
    records.push(record({ ...V11, id: i }, { "schema-version": "1.1", producer: "mobile" }));
  for (let i = 0; i < 10; i++)
    records.push(record(undefined, { producer: "billing" }, { raw: wire(102, V11) }));
  for (let i = 0; i < 10; i++) records.push(record({ id: i, event: "click" }, { producer: "legacy" }));
  records.push(
    record(undefined, { "schema-version": "1.0", producer: "junk" }, { raw: Buffer.from("{not json") }),
  );
  records.push(
    record(undefined, { "schema-version": "1.0", producer: "junk" }, { raw: Buffer.from([0xff, 0x7b]) }),
  );
  records.push(record({ ...V1, x: 1, partner: true }, { "schema-version": "1.1", producer: "partner" }));
  return records;
}

describe("the validation-worker path", () => {
  it("counts and validates exactly as the in-thread path, and holds nothing back after flush", async () => {
    const inThread = await eventPipeline();
    const runner = inThreadRunner();
    const workers = await eventPipeline("", "", { runner: runner.runner });
    for (const r of stream()) inThread.pipeline.process(r);
    const records = stream();
    for (const r of records.slice(0, 40)) workers.pipeline.process(r);
    // Counted at once; validated only at the flush.
    expect(recordCounts(workers.pipeline)).toEqual(["mobile 1.1.0=10", "web 1.0.0=30"]);
    expect(validationCounts(workers.pipeline)).toEqual([]);
    expect(workers.pipeline.pendingValidations).toBe(40);
    await workers.pipeline.flush();
    for (const r of records.slice(40)) workers.pipeline.process(r);
    await workers.pipeline.flush();
    expect(workers.pipeline.pendingValidations).toBe(0);
    // The 10 undeclared records parsed on this thread to look for a version in the payload are
    // validated in the job too, within the time budget (with their document, when on this thread).
    expect(runner.jobs).toEqual([40, 33]);
    expect(recordCounts(workers.pipeline)).toEqual(recordCounts(inThread.pipeline));
    expect(validationCounts(workers.pipeline)).toEqual(validationCounts(inThread.pipeline));
    expect(decodeCounts(workers.pipeline)).toEqual(decodeCounts(inThread.pipeline));
    expect(decodeCounts(workers.pipeline)).toEqual(["events not_json=1", "events not_utf8=1"]);
    const failures = (p: Pipeline) =>
      p.tallies.failures
        .filter((c) => c.value > 0)
        .map((c) => `${c.labels.writer_version}>${c.labels.reader_version} ${c.labels.keyword}=${c.value}`)
        .sort();
    expect(failures(workers.pipeline)).toEqual(failures(inThread.pipeline));
  });

  it("gives the validated-record hook the same records, with the document parsed only when asked", async () => {
    const heard = (out: string[]): ValidatedHook => {
      return (v) =>
        out.push(
          `${v.producer} ${v.writer?.version.text ?? "none"} ${v.subject.results.map((r) => (r.passed ? "pass" : r.keyword)).join(",")} ${JSON.stringify(v.document())}`,
        );
    };
    const a: string[] = [];
    const b: string[] = [];
    const inThread = await eventPipeline("", "", { validated: [heard(a)] });
    const workers = await eventPipeline("", "", { validated: [heard(b)], runner: inThreadRunner().runner });
    for (const r of stream()) inThread.pipeline.process(r);
    for (const r of stream()) workers.pipeline.process(r);
    await workers.pipeline.flush();
    // Validated at the flush rather than at once: the same records.
    expect([...b].sort()).toEqual([...a].sort());
    expect(b).toHaveLength(71);
  });

  it("feeds the corpus from the workers' shape keys, keeping the same examples", async () => {
    const corpusA = new Corpus({ maxShapes: 50, redact: [] });
    const corpusB = new Corpus({ maxShapes: 50, redact: [] });
    const inThread = await eventPipeline("", "", { validated: [feedCorpus(corpusA)] });
    const workers = await eventPipeline("", "", {
      validated: [feedCorpus(corpusB)],
      runner: inThreadRunner(true).runner,
    });
    for (const r of stream()) inThread.pipeline.process(r);
    for (const r of stream()) workers.pipeline.process(r);
    await workers.pipeline.flush();
    expect(corpusB.toJSON()).toEqual(corpusA.toJSON());
    expect(corpusB.entries()).toHaveLength(corpusA.entries().length);
  });

  it("counts a document too deep for the validators as too_deep, from the worker as in-thread", async () => {
    const workers = await eventPipeline("", "", { runner: inThreadRunner(true).runner });
    const deep = `{"id":1,"event":"view","x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    workers.pipeline.process(
      record(undefined, { "schema-version": "1.0", producer: "deep" }, { raw: Buffer.from(deep) }),
    );
    await workers.pipeline.flush();
    expect(recordCounts(workers.pipeline)).toEqual(["deep 1.0.0=1"]);
    // The validators stop at the closed schema's first unknown key; the shape key is too deep.
    expect(decodeCounts(workers.pipeline)).toEqual(["events too_deep=1"]);
  });

  it("takes a job lost with its worker as unknown use for the records that declare no version", async () => {
    // Without the payload pointer, undeclared records are not parsed here: they go to the worker.
    const unread: string[] = [];
    const { pipeline } = await eventPipeline("    writer:\n      sources: [header]\n", "", {
      runner: {
        validate: async () => {
          throw new Error("the worker exited");
        },
      },
      unreadable: [
        (_s, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
      ],
    });
    pipeline.process(record(V1, { producer: "legacy" }));
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    pipeline.process(record(V1, { producer: "legacy" }));
    await pipeline.flush();
    expect(recordCounts(pipeline)).toEqual(["legacy none=2", "web 1.0.0=1"]);
    expect(validationCounts(pipeline)).toEqual([]);
    expect(decodeCounts(pipeline)).toEqual(["events internal_error=3"]);
    // The declared record still declares 1.0.0; nobody checked what the two others need.
    expect(unread).toEqual(["events/0 internal_error 1", "events/0 internal_error 1"]);
  });

  it("judges a record here when the worker judged it with another catalog's readers (a reload in between)", async () => {
    const inThread = await eventPipeline();
    // The worker's catalog has 2.0.0 retired: it judges two readers where the pipeline has three.
    const olderConfig = parseConfig(
      eventConfigYaml().replace('"2.0.0": { status: candidate }', '"2.0.0": { status: retired }'),
      resolve("test/config.yaml"),
    );
    const older = (await loadCatalog(olderConfig)).subjects.get("event")!;
    expect(older.readers.map((r) => r.version.text)).toEqual(["1.0.0", "1.1.0"]);
    const validator = new JobValidator([older], 1, false);
    let id = 0;
    const candidate: string[] = [];
    const workers = await eventPipeline("", "", {
      runner: { validate: async (job: SampleJob) => validator.validate(job.message(++id)) },
      validated: [
        (v) => candidate.push(v.subject.results.map((r) => `${r.reader.version.text}:${r.passed}`).join(" ")),
      ],
    });
    for (const r of stream()) inThread.pipeline.process(r);
    for (const r of stream()) workers.pipeline.process(r);
    await workers.pipeline.flush();
    expect(validationCounts(workers.pipeline)).toEqual(validationCounts(inThread.pipeline));
    // Every record was judged against all three readers, 2.0.0 included: never a pass by default.
    expect(candidate.every((c) => c.split(" ").length === 3)).toBe(true);
    expect(candidate.filter((c) => c.includes("2.0.0:false")).length).toBe(
      inThread.pipeline.tallies.validations
        .filter((c) => c.labels.reader_version === "2.0.0" && c.labels.result === "fail")
        .reduce((s, c) => s + c.value, 0),
    );
  });

  it("counts the records of a job whose worker died as internal_error, their counts kept", async () => {
    const { pipeline } = await eventPipeline("", "", {
      runner: { validate: () => Promise.reject(new Error("a validation worker exited")) },
    });
    for (const r of stream().slice(0, 5)) pipeline.process(r);
    await pipeline.flush();
    expect(recordCounts(pipeline)).toEqual(["web 1.0.0=5"]);
    expect(decodeCounts(pipeline)).toEqual(["events internal_error=5"]);
    expect(pipeline.pendingValidations).toBe(0);
  });
});

describe("the job validator", () => {
  it("answers per item and reader, with keyword and pointer strings interned once per job", async () => {
    let validator: JobValidator | undefined;
    let message: ReturnType<SampleJob["message"]> | undefined;
    const { pipeline } = await eventPipeline("", "", {
      runner: {
        validate: async (job, subjects) => {
          validator = new JobValidator(subjects, 7, false);
          message = job.message(1);
          return validator.validate(message);
        },
      },
    });
    pipeline.process(record(V11, { "schema-version": "1.1", producer: "mobile" }));
    pipeline.process(record(V11, { "schema-version": "1.1", producer: "mobile" }));
    pipeline.process(record(undefined, { "schema-version": "1.0" }, { raw: Buffer.from("[") }));
    await pipeline.flush();
    const result = validator!.validate(message!);
    expect(result.generation).toBe(7);
    expect([...result.status]).toEqual([0, 0, 2]);
    expect(result.readers).toEqual({ 0: ["1.0.0", "1.1.0", "2.0.0"] });
    // Where each item's readers start, and where the last one's end.
    expect([...result.firstReader]).toEqual([0, 3, 6, 9]);
    expect([...result.passed]).toEqual([0, 1, 1, 0, 1, 1, 0, 0, 0]);
    expect(result.strings).toEqual(["", "additionalProperties"]);
    expect([...result.keywords]).toEqual([1, 0, 0, 1, 0, 0, 0, 0, 0]);
  });
});
