import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "kafkajs";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Lifecycle } from "../../../src/lifecycle/lifecycle.js";
import type { FieldUse } from "../../../src/lifecycle/field-evidence.js";
import { createLogger } from "../../../src/log.js";
import { readFieldRecord, isRetiredRecord } from "../../../src/state/records.js";
import { StateMessages, chunks } from "../../../src/state/messages.js";
import { StatsShare } from "../../../src/stats/share.js";
import { StatsStore } from "../../../src/stats/store.js";
import { T0, coverage, rec, stateOf } from "./fixture.js";

// The state topic's records of field evidence (`field/`), retirement dates (`retired/`) and field
// statistics (`stats/`), and which replicas share field evidence (`meta/started`): what each means to
// replica-a, what is unreadable, and what replica-a publishes of them.

const FIELDS = [{ pointer: "/amount", deprecatedIn: ["1.1.0"], optionalIn: undefined }];
const use = (over: Partial<FieldUse> = {}): FieldUse => ({
  producer: "billing",
  writer: "1.1.0",
  lastPresentAt: T0,
  lastAbsentAt: 0,
  lastUnknownAt: 0,
  presentSinceMissing: 2,
  buckets: [{ start: T0, present: 2, absent: 0, unknown: 0 }],
  ...over,
});
const text = (messages: Message[]) =>
  messages.map((m) => [m.key, m.value === null ? null : JSON.parse(String(m.value))]);
const problem = (key: string, what: string) => `state topic sw-state: record ${key} ${what}`;

describe("field records", () => {
  it("another replica's uses of a field are kept apart and merged with this replica's when judged", async () => {
    const { messages, lifecycle, apply, problems } = await stateOf();
    apply([rec("field/event/%2Famount/replica-b", { uses: [use()] })]);
    const own = [use({ lastPresentAt: T0 + 5, presentSinceMissing: 1, buckets: [] })];
    expect(messages.shared.world.fieldUses!("event", "/amount", own)).toEqual({
      uses: [use({ lastPresentAt: T0 + 5, presentSinceMissing: 3 })],
      trackedSince: Number.NEGATIVE_INFINITY,
    });
    // nothing of it in this replica's own evidence, and nothing of another field
    expect(lifecycle.fields.usesOf("event", "/amount")).toEqual([]);
    expect(messages.shared.world.fieldUses!("event", "/other", own).uses).toEqual(own);
    apply([rec("field/event/%2Famount/replica-b", { uses: [], trackedSince: T0 + 9 })]);
    expect(messages.shared.world.fieldUses!("event", "/amount", own)).toEqual({
      uses: own,
      trackedSince: T0 + 9,
    });
    expect(problems).toEqual([]);
  });

  it("this replica's previous run's (read on start) are its own evidence; after the start its own come back ignored", async () => {
    const { messages, lifecycle, apply } = await stateOf();
    apply([rec("field/event/%2Famount/replica-a", { uses: [use()], trackedSince: T0 - 1 })], true);
    expect(lifecycle.fields.usesOf("event", "/amount")).toEqual([{ ...use(), field: "/amount" }]);
    expect(lifecycle.fields.trackedSince("event", "/amount")).toBe(T0 - 1);
    apply([rec("field/event/%2Ftotal/replica-a", { uses: [use()] })]);
    expect(lifecycle.fields.usesOf("event", "/total")).toEqual([]);
    expect(messages.shared.world.fieldUses!("event", "/total", []).uses).toEqual([]);
  });

  it("an unreadable one is reported and restarts the windows; one of a subject not watched is ignored", async () => {
    const { lifecycle, apply, problems, gaps } = await stateOf();
    lifecycle.coverage.restore([coverage("events", 0, T0 - 60_000, "3")]);
    const bad = [
      "{",
      { uses: "all" },
      { uses: [{ ...use(), lastPresentAt: "today" }] },
      { uses: [{ ...use(), buckets: [{ start: T0, present: 1, absent: 0 }] }] },
      { uses: [use()], trackedSince: "later" },
    ];
    apply(bad.map((value) => rec("field/event/%2Famount/replica-b", value)));
    apply([rec("field/other/%2Famount/replica-b", "{")]);
    const unreadable = problem("field/event/%2Famount/replica-b", "is unreadable: treated as a coverage gap");
    expect(problems).toEqual(bad.map(() => unreadable));
    expect(gaps()).toEqual(bad.map(() => ["events/0", "state-unreadable", T0, unreadable]));
    expect(readFieldRecord({ uses: [use()] })).toEqual({ uses: [use()] });
  });
});

describe("which replicas share field evidence", () => {
  it("the group's field evidence is whole only from the last heartbeat of a replica that does not share it", async () => {
    const { messages, apply, setNow } = await stateOf();
    const since = () => messages.shared.world.fieldsSince!();
    // read on start: an older replica (no `fields`) last heard of at T0 + 5, a sharing one at T0 + 9
    apply(
      [
        rec("meta/started/old", { startedAt: T0 }),
        rec("meta/alive/old", { at: T0 + 5 }),
        rec("meta/started/replica-b", { startedAt: T0, fields: true }),
        rec("meta/alive/replica-b", { at: T0 + 9 }),
      ],
      true,
    );
    expect(since()).toBe(T0 + 5);
    // live heartbeats count when they arrive
    setNow(T0 + 50);
    apply([rec("meta/alive/old", { at: T0 + 1 })]);
    expect(since()).toBe(T0 + 50);
    // the old replica restarted on a version that shares: its past stays the floor
    setNow(T0 + 60);
    apply([rec("meta/started/old", { startedAt: T0 + 55, fields: true }), rec("meta/alive/old", { at: 0 })]);
    expect(since()).toBe(T0 + 50);
  });

  it("this replica's own previous run counts, when it did not share; every replica sharing, all along", async () => {
    const { messages, apply } = await stateOf();
    expect(messages.shared.world.fieldsSince!()).toBe(Number.NEGATIVE_INFINITY);
    apply(
      [rec("meta/started/replica-a", { startedAt: T0 }), rec("meta/alive/replica-a", { at: T0 + 3 })],
      true,
    );
    expect(messages.shared.world.fieldsSince!()).toBe(T0 + 3);
  });
});

async function retiredLifecycle() {
  const config = parseConfig(
    `subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: retired }
      "1.1.0": { status: active }
`,
    resolve("test/config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const s = { subject: catalog.subjects.get("event")!, drainWindow: 60, readyWindow: 60, minSamples: 1 };
  const lifecycle = new Lifecycle([s], createLogger("silent"), () => T0 + 100);
  const messages = new StateMessages("replica-a", "sw-state");
  const problems: string[] = [];
  const apply = (records: ReturnType<typeof rec>[], loading = false) =>
    records.forEach((r) => messages.apply(lifecycle, r, loading, (p) => problems.push(p)));
  return { lifecycle, messages, problems, apply };
}

describe("retirement dates", () => {
  it("the earliest date any replica saw is the version's; a tombstone withdraws it; an unreadable one is left out", async () => {
    const { lifecycle, apply, problems } = await retiredLifecycle();
    apply([rec("retired/event/1.0.0", { at: T0 + 50 })]);
    expect(lifecycle.retired.since("event", "1.0.0")).toBe(T0 + 50);
    apply([rec("retired/event/1.0.0", { at: T0 + 70 }), rec("retired/event/1.0.0", { at: T0 + 20 })]);
    expect(lifecycle.retired.since("event", "1.0.0")).toBe(T0 + 20);
    // a version not retired here keeps no date from it
    apply([rec("retired/event/1.1.0", { at: T0 })]);
    expect(lifecycle.retired.since("event", "1.1.0")).toBeUndefined();
    apply([rec("retired/event/1.0.0", { at: "monday" }), rec("retired/event/1.0.0", null)]);
    expect(problems).toEqual([problem("retired/event/1.0.0", "is unreadable: left out")]);
    expect(isRetiredRecord({ at: 1 })).toBe(true);
  });

  it("a date shared before this replica sees the version retired is the one it takes then", async () => {
    const { lifecycle } = await retiredLifecycle();
    const subject = [...lifecycle.subjects][0]!.subject;
    const active = {
      ...subject,
      byVersion: new Map([...subject.byVersion].map(([v, x]) => [v, { ...x, status: "active" as const }])),
    };
    lifecycle.retired.catalogChanged(subject, active, T0);
    lifecycle.retired.shared("event", "1.0.0", T0 + 10, false);
    lifecycle.retired.catalogChanged(active, subject, T0 + 90);
    expect(lifecycle.retired.since("event", "1.0.0")).toBe(T0 + 10);
  });

  it("are published once each, and withdrawn by a tombstone when the version is no longer retired", async () => {
    const { lifecycle, messages } = await retiredLifecycle();
    lifecycle.retired.restore({ event: { "1.0.0": T0 } }, () => true);
    expect(
      text(messages.changedMessages(lifecycle)).filter(([k]) => String(k).startsWith("retired/")),
    ).toEqual([["retired/event/1.0.0", { at: T0 }]]);
    expect(
      text(messages.changedMessages(lifecycle)).filter(([k]) => String(k).startsWith("retired/")),
    ).toEqual([]);
    const subject = [...lifecycle.subjects][0]!.subject;
    const back = { ...subject, versions: subject.versions.map((v) => ({ ...v, status: "active" as const })) };
    lifecycle.retired.catalogChanged(subject, back as never, T0 + 1);
    expect(
      text(messages.changedMessages(lifecycle)).filter(([k]) => String(k).startsWith("retired/")),
    ).toEqual([["retired/event/1.0.0", null]]);
  });
});

describe("field evidence published", () => {
  it("every field record on a full publish, then between full publishes only those whose verdict-relevant times changed", async () => {
    const { lifecycle, messages } = await stateOf();
    const row = {
      labels: { producer: "billing", writer_version: "1.1.0" },
      present: [2],
      absent: [0],
      unknown: [0],
      lastPresentAt: [T0],
      lastAbsentAt: [0],
      lastUnknownAt: [0],
    };
    const facts = [{ subject: "event", fields: FIELDS, rows: [row] }];
    lifecycle.observeFields(facts);
    const fieldsOf = (m: Message[]) => text(m).filter(([k]) => String(k).startsWith("field/"));
    expect(fieldsOf(messages.publishMessages(lifecycle, []))).toEqual([
      ["field/event/%2Famount/replica-a", { uses: [use()] }],
    ]);
    expect(fieldsOf(messages.changedMessages(lifecycle))).toEqual([]);
    // a record that lacked a deprecated field changes no verdict: it waits for the next full publish
    row.absent[0] = 1;
    row.lastAbsentAt[0] = T0;
    lifecycle.observeFields(facts);
    expect(fieldsOf(messages.changedMessages(lifecycle))).toEqual([]);
    expect(fieldsOf(messages.publishMessages(lifecycle, []))).toHaveLength(1);
    // one that carried it goes out within the second
    row.present[0] = 3;
    row.lastPresentAt[0] = T0 + 1;
    lifecycle.observeFields(facts);
    expect(fieldsOf(messages.changedMessages(lifecycle)).map(([, v]) => v.uses[0].lastPresentAt)).toEqual([
      T0 + 1,
    ]);
  });
});

describe("field statistics records", () => {
  const HOUR = 3_600_000;
  const options = { bucketMs: HOUR, buckets: 3, maxSeries: 10, maxValues: 5, maxBytes: 1e9 };
  const key = (index: string, replica = "replica-b") =>
    `stats/event/%2Famount/billing/1.1.0/${index}/${replica}`;
  const bucket = { kind: "values", bucketMs: HOUR, count: 2, values: { buy: 2 } };

  async function withStats() {
    const state = await stateOf();
    const share = new StatsShare(new StatsStore(options), []);
    const messages = new StateMessages("replica-a", "sw-state", share);
    const problems: string[] = [];
    const apply = (records: ReturnType<typeof rec>[], loading = false) =>
      records.forEach((r) => messages.apply(state.lifecycle, r, loading, (p) => problems.push(p)));
    return { ...state, share, messages, apply, problems };
  }

  it("another replica's bucket is kept; an unreadable one is left out and reported, never a coverage gap", async () => {
    const { share, apply, problems, gaps } = await withStats();
    const index = String(Math.floor(T0 / HOUR));
    apply([rec(key(index), bucket), rec(key(index), { ...bucket, count: -1 }), rec(key("x1"), bucket)]);
    expect(share.peerSeries).toBe(1);
    const left = "is unreadable: left out of the field statistics";
    expect(problems).toEqual([problem(key(index), left), problem(key("x1"), left)]);
    expect(gaps()).toEqual([]);
    // this replica's own, after the start, is its own publish coming back
    apply([rec(key(index, "replica-a"), bucket)]);
    expect([...share.store.all()]).toEqual([]);
  });

  it("are published with the full publish at most once per period, and on the last one whatever the period", async () => {
    const { lifecycle, share, messages } = await withStats();
    share.store.addValue(share.store.series("event", "/event", "values", "web", "none"), T0, "buy");
    const statsOf = (m: Message[]) => text(m).filter(([k]) => String(k).startsWith("stats/"));
    const index = Math.floor(T0 / HOUR);
    expect(statsOf(messages.publishMessages(lifecycle, [], { everyMs: 60_000, final: false }))).toEqual([
      [
        `stats/event/%2Fevent/web/none/${index}/replica-a`,
        { kind: "values", bucketMs: HOUR, count: 1, values: { buy: 1 } },
      ],
    ]);
    share.store.addValue(share.store.series("event", "/event", "values", "web", "none"), T0, "buy");
    expect(statsOf(messages.publishMessages(lifecycle, [], { everyMs: 60_000, final: false }))).toEqual([]);
    expect(statsOf(messages.publishMessages(lifecycle, [], { everyMs: 60_000, final: true }))).toHaveLength(
      1,
    );
  });
});

describe("records a broker accepts", () => {
  it("a list of records is cut into sends of at most 900,000 bytes, in order; a larger record goes alone", () => {
    const m = (key: string, bytes: number): Message => ({ key, value: "x".repeat(bytes) });
    const list = [m("a", 500_000), m("b", 399_000), m("c", 2_000), m("d", 950_000), m("e", 1)];
    expect(chunks(list).map((c) => c.map((x) => x.key))).toEqual([["a", "b"], ["c"], ["d"], ["e"]]);
    expect(chunks([])).toEqual([]);
  });

  it("a field record past 500,000 bytes is published with one bucket per use, the counts summed at the newest's start", async () => {
    const { lifecycle, messages } = await stateOf();
    const producers = 2_500;
    const rows = Array.from({ length: producers }, (_, i) => ({
      labels: { producer: `producer-${String(i).padStart(4, "0")}`, writer_version: "1.1.0" },
      present: [1],
      absent: [0],
      unknown: [0],
      lastPresentAt: [T0],
      lastAbsentAt: [0],
      lastUnknownAt: [0],
    }));
    const facts = [{ subject: "event", fields: FIELDS, rows }];
    lifecycle.observeFields(facts);
    for (const r of rows) r.present[0] = 2;
    // a later bucket (the window is 60 s: 5 s buckets)
    lifecycle.fields.observe(facts, T0 + 5_000, () => 60_000);
    expect(
      messages.shared.fieldMessages(lifecycle, false).map((x) => JSON.parse(String(x.value)).uses[0]),
    ).toEqual([
      {
        ...use({ producer: "producer-0000", presentSinceMissing: 2 }),
        buckets: [{ start: T0 + 5_000, present: 2, absent: 0, unknown: 0 }],
      },
    ]);
    expect(messages.shared.compacted).toBe(1);
  });
});
