import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { TrafficHistory, type HistoryOptions } from "../../../src/history/history.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { StateFile } from "../../../src/state/file.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";

/** pay 1.0 (deprecated, `amount` deprecated) and 1.1 (active, `total` optional). */
const V10 = {
  properties: { id: { type: "integer" }, amount: { type: "number", deprecated: true } },
  required: ["id"],
};
const V11 = {
  properties: {
    id: { type: "integer" },
    amount: { type: "number", deprecated: true },
    total: { type: "number" },
  },
  required: ["id"],
};

const HOUR = 3_600_000;
/** A bucket boundary: 4 buckets over a 4h drain window are an hour each. */
const T0 = Date.UTC(2026, 11, 1, 8);

/** Every property required: no field of interest, so the field tallies keep no rows for the subject. */
const PLAIN = { properties: { id: { type: "integer" } }, required: ["id"] };

async function setup(options: Omit<HistoryOptions, "fields"> = {}, drainWindow = "4h", tracked = true) {
  const dir = await writeTree(
    tracked ? { "pay/1.0.json": V10, "pay/1.1.json": V11 } : { "pay/1.0.json": PLAIN, "pay/1.1.json": PLAIN },
  );
  const config = parseConfig(
    [
      "subjects:",
      "  - name: pay",
      "    topics: [payments, refunds]",
      "    schemas: pay",
      `    drainWindow: ${drainWindow}`,
      "    versions:",
      '      "1.0.0": { status: deprecated }',
      '      "1.1.0": { status: active }',
    ].join("\n"),
    join(dir, "config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const fields = new FieldTallies(catalog);
  const history = new TrafficHistory({ buckets: 4, ...options, fields: (s) => fields.subject(s) });
  const pipeline = new Pipeline(catalog, config, { counted: [history.listener, fields.listener] });
  /** One record of `producer` on `version` at `at`, carrying `doc`'s fields. */
  const send = (producer: string, version: string, at: number, doc: object = {}, topic = "payments") =>
    pipeline.process(
      record({ id: 1, ...doc }, { producer, "schema-version": version }, { topic, timestamp: at }),
    );
  return { history, send, pipeline };
}

/** The view's lines as `producer version: counts` and `producer field: present/records ...`. */
function lines(history: TrafficHistory, now: number): { from: string; versions: string[]; fields: string[] } {
  const view = history.view("pay", now)!;
  return {
    from: new Date(view.from).toISOString(),
    versions: view.versions.map((l) => `${l.producer} ${l.version}: ${l.records.join(" ")}`),
    fields: view.fields.map(
      (l) => `${l.producer} ${l.field}: ${l.present.map((p, i) => `${p}/${l.records[i]}`).join(" ")}`,
    ),
  };
}

describe("the traffic history", () => {
  it("counts each producer's records per version in the bucket they were observed in", async () => {
    const { history, send } = await setup();
    expect(history.view("pay", T0)).toBeUndefined();
    send("billing", "1.0", T0 + 1000, { amount: 1 });
    send("billing", "1.0", T0 + HOUR - 1, { amount: 1 });
    send("web", "1.0", T0 + HOUR / 2, { amount: 1 });
    // The next hour: billing moves to 1.1 and total, web stays.
    send("billing", "1.1", T0 + HOUR, { total: 1 });
    send("billing", "1.1", T0 + HOUR + 5, { total: 1 });
    send("web", "1.0", T0 + HOUR + 6, { amount: 1 });
    expect(lines(history, T0 + HOUR + 10)).toEqual({
      from: "2026-12-01T06:00:00.000Z",
      versions: ["billing 1.0.0: 0 0 2 0", "web 1.0.0: 0 0 1 1", "billing 1.1.0: 0 0 0 2"],
      fields: [
        "billing /amount: 0/0 0/0 2/2 0/2",
        "billing /total: 0/0 0/0 0/2 2/2",
        "web /amount: 0/0 0/0 1/1 1/1",
        "web /total: 0/0 0/0 0/1 0/1",
      ],
    });
    expect(history.view("pay", T0 + HOUR)).toMatchObject({ bucketMs: HOUR, buckets: 4 });
  });

  it("moves the window on with now, and a bucket leaves it after the fourth", async () => {
    const { history, send } = await setup();
    send("billing", "1.0", T0, { amount: 1 });
    send("billing", "1.1", T0 + HOUR, {});
    // Two hours without records: the window ends with now's bucket, which is empty.
    expect(lines(history, T0 + 3 * HOUR).versions).toEqual([
      "billing 1.0.0: 1 0 0 0",
      "billing 1.1.0: 0 1 0 0",
    ]);
    expect(lines(history, T0 + 4 * HOUR).versions).toEqual(["billing 1.1.0: 1 0 0 0"]);
    expect(history.view("pay", T0 + 5 * HOUR)!.versions).toEqual([]);
  });

  it("clears the slots a roll passes over; without tracked fields, counts a late record in its own bucket, or drops it", async () => {
    const { history, send } = await setup({}, "4h", false);
    send("billing", "1.0", T0, {});
    send("billing", "1.0", T0 + HOUR, {});
    // Six hours on: every slot is reused, none keeps the old counts.
    send("web", "1.1", T0 + 7 * HOUR, {});
    expect(lines(history, T0 + 7 * HOUR).versions).toEqual(["web 1.1.0: 0 0 0 1"]);
    // billing's series last saw T0 + 1h: its record at T0 + 5h is within the ring, one at T0 + 6h too.
    send("billing", "1.0", T0 + 5 * HOUR, {});
    send("billing", "1.0", T0 + 6 * HOUR, {}, "refunds");
    expect(history.dropped).toBe(0);
    expect(lines(history, T0 + 7 * HOUR).versions).toEqual(["billing 1.0.0: 0 1 1 0", "web 1.1.0: 0 0 0 1"]);
    // A series whose last record is older than the ring: it counts for no bucket, and is counted.
    send("mobile", "1.0", T0 + 2 * HOUR, {});
    expect(history.dropped).toBe(1);
    expect(lines(history, T0 + 7 * HOUR).versions).toEqual(["billing 1.0.0: 0 1 1 0", "web 1.1.0: 0 0 0 1"]);
  });

  it("with tracked fields, takes the versions' counts from the field tallies when a bucket ends: a late record counts in the newest", async () => {
    const { history, send } = await setup();
    send("billing", "1.0", T0, {});
    send("billing", "1.0", T0 + HOUR, {});
    send("web", "1.1", T0 + 7 * HOUR, {});
    send("billing", "1.0", T0 + 5 * HOUR, {});
    send("mobile", "1.0", T0 + 2 * HOUR, {});
    expect(lines(history, T0 + 7 * HOUR).versions).toEqual([
      "billing 1.0.0: 0 0 0 1",
      "web 1.1.0: 0 0 0 1",
      "mobile 1.0.0: 0 0 0 1",
    ]);
    expect(history.dropped).toBe(0);
  });

  it("keeps at most maxLines lines and counts the records of the others", async () => {
    const { history, send } = await setup({ maxLines: 3 });
    send("billing", "1.0", T0, {});
    send("web", "1.0", T0, {});
    // Nothing is drawn yet: the versions' lines are made when the bucket ends, from the field rows.
    expect(history.lines).toBe(0);
    // The next bucket: the fold of T0 finds room for billing's version and its two fields only; web's
    // record is dropped once for its version and once for each field (3).
    send("mobile", "1.0", T0 + HOUR, {});
    send("mobile", "1.0", T0 + HOUR + 1, {});
    expect([history.lines, history.dropped]).toEqual([3, 3]);
    expect(lines(history, T0 + HOUR)).toEqual({
      from: "2026-12-01T06:00:00.000Z",
      versions: ["billing 1.0.0: 0 0 1 0"],
      fields: ["billing /amount: 0/0 0/0 0/1 0/0", "billing /total: 0/0 0/0 0/1 0/0"],
    });
    // The view folded mobile's 2 records: no room for their version (2) nor their 2 fields (4).
    expect(history.dropped).toBe(9);
  });

  it("without tracked fields, keeps at most maxLines version lines", async () => {
    const { history, send } = await setup({ maxLines: 2 }, "4h", false);
    send("billing", "1.0", T0, {});
    send("web", "1.0", T0, {});
    send("mobile", "1.0", T0, {});
    send("mobile", "1.0", T0 + 1, {});
    expect([history.lines, history.dropped]).toEqual([2, 2]);
    expect(lines(history, T0)).toEqual({
      from: "2026-12-01T05:00:00.000Z",
      versions: ["billing 1.0.0: 0 0 0 1", "web 1.0.0: 0 0 0 1"],
      fields: [],
    });
  });

  it("starts a subject afresh when its drain window changes", async () => {
    const first = await setup({}, "4h");
    first.send("billing", "1.0", T0, {});
    const saved = first.history.toJSON();
    const again = await setup({ saved }, "8h");
    expect(again.history.view("pay", T0)!.bucketMs).toBe(HOUR);
    again.send("web", "1.1", T0, {});
    // The restored lines gave their room back; web's are made when its bucket is read.
    expect(again.history.lines).toBe(0);
    expect(lines(again.history, T0)).toEqual({
      from: "2026-12-01T02:00:00.000Z",
      versions: ["web 1.1.0: 0 0 0 1"],
      fields: ["web /amount: 0/0 0/0 0/0 0/1", "web /total: 0/0 0/0 0/0 0/1"],
    });
  });
});

describe("the saved traffic history", () => {
  it("gives back every line and bucket it was saved with", async () => {
    const { history, send } = await setup();
    send("billing", "1.0", T0, { amount: 1 });
    send("billing", "1.1", T0 + HOUR, { total: 2 });
    send("web", "1.0", T0 + 2 * HOUR, {});
    const json = history.toJSON();
    expect(json.subjects[0]).toMatchObject({
      subject: "pay",
      bucketMs: HOUR,
      newest: (T0 + 2 * HOUR) / HOUR,
    });
    const restored = (await setup({ saved: JSON.parse(JSON.stringify(json)) })).history;
    expect(lines(restored, T0 + 2 * HOUR)).toEqual(lines(history, T0 + 2 * HOUR));
    expect(lines(restored, T0 + 2 * HOUR).versions).toEqual([
      "billing 1.0.0: 0 1 0 0",
      "billing 1.1.0: 0 0 1 0",
      "web 1.0.0: 0 0 0 1",
    ]);
    expect(restored.problem).toBeUndefined();
  });

  it("is the state file's history section, beside the lifecycle's", async () => {
    const { history, send } = await setup();
    send("billing", "1.0", T0, {});
    send("web", "1.1", T0 + 1, {});
    const lifecycle = { format: 1, startedAt: T0, partitions: [], versions: {}, candidates: {} } as never;
    const file = new StateFile(`${await writeTree({})}/state.json`);
    await file.write({ lifecycle, history: history.toJSON() });
    const read = await file.read();
    expect(read.sections?.lifecycle).toEqual(lifecycle);
    const restored = (await setup({ saved: read.sections?.history })).history;
    expect(lines(restored, T0).versions).toEqual(["billing 1.0.0: 0 0 0 1", "web 1.1.0: 0 0 0 1"]);
  });

  it("starts empty, saying why, from a malformed section, and silently from another bucket count", async () => {
    const { history, send } = await setup();
    send("billing", "1.0", T0, {});
    const json = history.toJSON();
    const broken = {
      ...json,
      subjects: [{ ...json.subjects[0]!, versions: [{ producer: "x", version: "1", records: [1] }] }],
    };
    const read = (await setup({ saved: broken })).history;
    expect(read.problem).toBe("a version line of the saved history has no counts");
    expect([read.lines, read.view("pay", T0)]).toEqual([0, undefined]);
    expect((await setup({ saved: "nonsense" })).history.problem).toBe(
      "the saved history has an unknown format",
    );
    const other = (await setup({ saved: { ...json, buckets: 48 } })).history;
    expect([other.problem, other.view("pay", T0)]).toEqual([undefined, undefined]);
  });
});
