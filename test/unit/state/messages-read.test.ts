import { describe, expect, it } from "vitest";
import { T0, candidate, coverage, rec, stateOf, undecodable, unreadableEntry, version } from "./fixture.js";

// What a record of the shared state topic means to a replica (StateMessages.apply): coverage,
// version, candidate, unreadable and meta records; what is a problem, and which partitions it turns
// into coverage gaps. Replica-a reads; replica-b is another replica.

const UNREADABLE = "is unreadable: treated as a coverage gap";
const UNKNOWN = "has a key this version does not know: every window restarts";
const problem = (key: string, what: string) => `state topic sw-state: record ${key} ${what}`;

describe("coverage records", () => {
  it("another replica's coverage of a partition it owns is taken as shared", async () => {
    const { lifecycle, apply, problems, setNow } = await stateOf();
    setNow(T0 + 500);
    apply([rec("coverage/events/12", { owner: "replica-b", coverage: coverage("events", 12, T0, "41") })]);
    // observed until no later than now
    expect(lifecycle.coverage.get("events", 12)).toEqual({
      topic: "events",
      partition: 12,
      coveredSince: T0,
      lastOffset: "41",
      observedUntil: T0 + 500,
    });
    expect(lifecycle.coverage.isShared("events", 12)).toBe(true);
    expect(problems).toEqual([]);
  });

  it("another replica's partition counts as observed up to now only while its heartbeat arrives, and never when released or catching up", async () => {
    const { lifecycle, apply, setNow } = await stateOf();
    const through = (partition: number) =>
      lifecycle.coverage.observedThrough(lifecycle.coverage.get("events", partition)!, T0 + 2_000);
    setNow(T0 + 1_000);
    apply([
      rec("coverage/events/0", { owner: "replica-b", coverage: coverage("events", 0, T0, "1") }),
      rec("coverage/events/1", {
        owner: "replica-b",
        released: true,
        coverage: coverage("events", 1, T0, "1"),
      }),
      rec("coverage/events/2", {
        owner: "replica-b",
        catchingUp: true,
        coverage: coverage("events", 2, T0, "1"),
      }),
      rec("coverage/events/3", { owner: "replica-c", coverage: coverage("events", 3, T0, "1") }),
    ]);
    // replica-b not heard from yet; its heartbeats read on start tell of the past, this replica's own
    // are a previous run's
    apply([rec("meta/alive/replica-b", { at: T0 })], true);
    apply([rec("meta/alive/replica-a", { at: T0 })]);
    expect([0, 1, 2, 3].map(through)).toEqual([T0 + 1_000, T0 + 1_000, T0 + 1_000, T0 + 1_000]);
    apply([rec("meta/alive/replica-b", { at: T0 })]);
    expect([0, 1, 2, 3].map(through)).toEqual([T0 + 2_000, T0 + 1_000, T0 + 1_000, T0 + 1_000]);
  });

  it("a topic name with a slash is URI-encoded in the key", async () => {
    const { lifecycle, apply, problems } = await stateOf();
    apply([rec("coverage/a%2Fb/0", { owner: "replica-b", coverage: coverage("a/b", 0, T0, null) })]);
    expect(lifecycle.coverage.get("a/b", 0)?.coveredSince).toBe(T0);
    expect(problems).toEqual([]);
  });

  it("this replica's own coverage counts on start (a previous run), and is ignored after", async () => {
    const { lifecycle, apply } = await stateOf();
    apply(
      [rec("coverage/events/0", { owner: "replica-a", coverage: coverage("events", 0, T0 - 9_000, "7") })],
      true,
    );
    expect(lifecycle.coverage.get("events", 0)).toMatchObject({ coveredSince: T0 - 9_000, lastOffset: "7" });
    apply([
      rec("coverage/events/1", { owner: "replica-a", coverage: coverage("events", 1, T0 - 9_000, "7") }),
    ]);
    expect(lifecycle.coverage.get("events", 1)).toBeUndefined();
    // another replica's, while loading, counts as well
    apply(
      [rec("coverage/events/2", { owner: "replica-b", coverage: coverage("events", 2, T0 - 9_000, "7") })],
      true,
    );
    expect(lifecycle.coverage.get("events", 2)?.lastOffset).toBe("7");
  });

  it("an unreadable one is reported and makes its partition a coverage gap, that one only", async () => {
    const { lifecycle, apply, problems, gaps, setNow } = await stateOf();
    lifecycle.coverage.restore([coverage("events", 1, T0 - 60_000, "3")]);
    setNow(T0 + 7);
    const bad = [
      ["coverage/events/0", "{"], // not JSON
      ["coverage/events/0", { owner: "replica-b" }],
      // the entry names another partition than its key
      ["coverage/events/0", { owner: "replica-b", coverage: coverage("events", 1, T0, "9") }],
      // a partition number that is not all digits reads as no number
      ["coverage/events/0x", { owner: "replica-b", coverage: coverage("events", 0, T0, "9") }],
    ] as const;
    apply(bad.map(([key, value]) => rec(key, value)));
    expect(problems).toEqual([
      problem("coverage/events/0", UNREADABLE),
      problem("coverage/events/0", UNREADABLE),
      problem("coverage/events/0", UNREADABLE),
      problem("coverage/events/0x", UNKNOWN),
    ]);
    const detail = problem("coverage/events/0", UNREADABLE);
    expect(gaps().slice(0, 3)).toEqual([
      ["events/0", "state-unreadable", T0 + 7, detail],
      ["events/0", "state-unreadable", T0 + 7, detail],
      ["events/0", "state-unreadable", T0 + 7, detail],
    ]);
    expect(lifecycle.coverage.get("events", 1)?.lastOffset).toBe("3");
  });

  it("keys of another shape are unknown keys", async () => {
    const { apply, problems } = await stateOf();
    const keys = [
      "coverage/events",
      "coverage/events/0/1",
      "coverage//0",
      "coverage/events/x0",
      "coverage/events/",
    ];
    apply(keys.map((key) => rec(key, { owner: "replica-b", coverage: coverage("events", 0, T0, null) })));
    expect(problems).toEqual(keys.map((key) => problem(key, UNKNOWN)));
  });
});

describe("version records", () => {
  it("merge into this replica's evidence by max, from any replica", async () => {
    const { lifecycle, apply, problems } = await stateOf();
    lifecycle.declared("event", "1.0.0", "mobile", T0 + 5_000);
    apply([rec("version/event/1.0.0", { ...version(T0 + 9_000, "web"), undeclaredDependents: 2 })]);
    expect(lifecycle.version("event", "1.0.0")).toEqual({
      lastDeclaredAt: T0 + 9_000,
      lastDeclaredBy: "web",
      undeclaredDependents: 2,
      lastUndeclaredAt: 0,
    });
    apply([rec("version/event/1.0.0", version(T0, "batch"))]);
    // a version named by digits alone is no partition: only coverage keys name partitions
    apply([rec("version/event/7", version(T0 + 3, "batch"))]);
    expect(lifecycle.version("event", "7")).toEqual(version(T0 + 3, "batch"));
    expect(lifecycle.version("event", "1.0.0")).toMatchObject({
      lastDeclaredAt: T0 + 9_000,
      lastDeclaredBy: "web",
    });
    expect(problems).toEqual([]);
  });

  it("of a subject this monitor does not watch, or without a version, are ignored, readable or not", async () => {
    const { lifecycle, apply, problems, gaps } = await stateOf();
    apply([
      rec("version/other/1.0.0", version(T0)),
      rec("version/other/1.0.0", "{"),
      rec("version/event/", version(T0)),
      rec("candidate/other/2.0.0/replica-b", "{"),
    ]);
    expect(lifecycle.toState().versions).toEqual({});
    expect(problems).toEqual([]);
    expect(gaps()).toEqual([]);
  });

  it("an unreadable one is a coverage gap on every partition of the subject's topics, and no other", async () => {
    const { lifecycle, apply, problems, gaps, setNow } = await stateOf();
    lifecycle.coverage.restore([
      coverage("events", 2, T0 - 60_000, "3"),
      coverage("other", 0, T0 - 60_000, "3"),
    ]);
    lifecycle.knownPartitions.set("events", new Set([1]));
    setNow(T0 + 7);
    apply([rec("version/event/1.0.0", { ...version(T0), lastDeclaredAt: "yesterday" })]);
    const detail = problem("version/event/1.0.0", UNREADABLE);
    expect(problems).toEqual([detail]);
    expect(gaps()).toEqual([
      ["events/1", "state-unreadable", T0 + 7, detail],
      ["events/2", "state-unreadable", T0 + 7, detail],
    ]);
  });

  it("an unreadable one while no partition of the subject is known restarts every window", async () => {
    const { lifecycle, apply, gaps } = await stateOf();
    lifecycle.coverage.restore([coverage("other", 0, T0 - 60_000, "3")]);
    apply([rec("version/event/1.0.0", "{")]);
    const detail = problem("version/event/1.0.0", UNREADABLE);
    expect(gaps()).toEqual([["other/0", "state-unreadable", T0, detail]]);
  });

  it("keys of another shape are unknown keys", async () => {
    const { apply, problems } = await stateOf();
    const keys = [
      "version/event",
      "version/event/1.0.0/replica-b",
      "candidate/event/2.0.0",
      "versions/event/1.0.0",
    ];
    apply(keys.map((key) => rec(key, version(T0))));
    expect(problems).toEqual(keys.map((key) => problem(key, UNKNOWN)));
  });
});

describe("candidate records", () => {
  it("another replica's are kept apart, per version and replica, the latest of each", async () => {
    const { lifecycle, messages, apply, problems } = await stateOf();
    apply([
      rec("candidate/event/2.0.0/replica-b", candidate(3)),
      rec("candidate/event/2.0.0/replica-c", candidate(5, 1)),
      rec("candidate/event/2.0.0/replica-b", candidate(4)),
      rec("candidate/event/1.1.0/replica-b", candidate(6)),
    ]);
    expect(messages.candidates).toEqual(
      new Map([
        [
          "event\u00002.0.0",
          new Map([
            ["replica-b", candidate(4)],
            ["replica-c", candidate(5, 1)],
          ]),
        ],
        ["event\u00001.1.0", new Map([["replica-b", candidate(6)]])],
      ]),
    );
    // not this replica's own evidence
    expect(lifecycle.toState().candidates).toEqual({});
    expect(problems).toEqual([]);
  });

  it("this replica's own are its evidence on start (a previous run), and ignored after", async () => {
    const { lifecycle, messages, apply } = await stateOf();
    apply([rec("candidate/event/2.0.0/replica-a", candidate(3, 1))], true);
    expect(lifecycle.candidate("event", "2.0.0")).toEqual(candidate(3, 1));
    apply([rec("candidate/event/2.0.0/replica-a", candidate(9))]);
    expect(lifecycle.candidate("event", "2.0.0")).toEqual(candidate(3, 1));
    expect(messages.candidates).toEqual(new Map());
  });

  it("an unreadable one, or one naming no replica, is a coverage gap on the subject's partitions", async () => {
    const { lifecycle, messages, apply, problems, gaps } = await stateOf();
    lifecycle.knownPartitions.set("events", new Set([0]));
    apply([
      rec("candidate/event/2.0.0/replica-b", { ...candidate(3), producers: null }),
      rec("candidate/event/2.0.0/", candidate(3)),
    ]);
    expect(problems).toEqual([
      problem("candidate/event/2.0.0/replica-b", UNREADABLE),
      problem("candidate/event/2.0.0/", UNREADABLE),
    ]);
    expect(gaps().map(([p, reason, , detail]) => [p, reason, detail])).toEqual([
      ["events/0", "state-unreadable", problem("candidate/event/2.0.0/replica-b", UNREADABLE)],
      ["events/0", "state-unreadable", problem("candidate/event/2.0.0/", UNREADABLE)],
    ]);
    expect(messages.candidates).toEqual(new Map());
  });

  it("an unreadable one while no partition of the subject is known restarts every window", async () => {
    const { lifecycle, apply, gaps } = await stateOf();
    lifecycle.coverage.restore([coverage("other", 0, T0 - 60_000, "3")]);
    apply([rec("candidate/event/2.0.0/replica-b", "{")]);
    const detail = problem("candidate/event/2.0.0/replica-b", UNREADABLE);
    expect(gaps()).toEqual([["other/0", "state-unreadable", T0, detail]]);
  });
});

describe("unreadable records", () => {
  it("another replica's are kept per subject and replica, the latest of each", async () => {
    const { lifecycle, messages, apply, problems } = await stateOf();
    apply([
      rec("unreadable/event/replica-b", [unreadableEntry(2)]),
      rec("unreadable/event/replica-c", [unreadableEntry(1, "too_large")]),
      rec("unreadable/event/replica-b", [unreadableEntry(5)]),
    ]);
    expect(messages.unreadable).toEqual(
      new Map([
        [
          "event",
          new Map([
            ["replica-b", [unreadableEntry(5)]],
            ["replica-c", [unreadableEntry(1, "too_large")]],
          ]),
        ],
      ]),
    );
    expect(lifecycle.unreadableOf("event")).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("this replica's own are its evidence on start (a previous run), and ignored after", async () => {
    const { lifecycle, messages, apply } = await stateOf();
    apply([rec("unreadable/event/replica-a", [unreadableEntry(2)])], true);
    expect(lifecycle.unreadableOf("event")).toEqual([unreadableEntry(2)]);
    apply([rec("unreadable/event/replica-a", [unreadableEntry(7)])]);
    expect(lifecycle.unreadableOf("event")).toEqual([unreadableEntry(2)]);
    expect(messages.unreadable).toEqual(new Map());
  });

  it("of a subject this monitor does not watch are ignored, readable or not", async () => {
    const { messages, apply, problems } = await stateOf();
    // a part that is not valid URI encoding names no subject either
    apply([rec("unreadable/other/replica-b", "{"), rec("unreadable/%E0/replica-b", [unreadableEntry(1)])]);
    expect(problems).toEqual([]);
    expect(messages.unreadable).toEqual(new Map());
  });

  it("an unreadable list restarts every window", async () => {
    const { lifecycle, apply, problems, gaps } = await stateOf();
    lifecycle.coverage.restore([coverage("other", 0, T0 - 60_000, "3")]);
    apply([rec("unreadable/event/replica-b", [{ ...unreadableEntry(1), records: "1" }])]);
    const detail = problem("unreadable/event/replica-b", UNREADABLE);
    expect(problems).toEqual([detail]);
    expect(gaps()).toEqual([["other/0", "state-unreadable", T0, detail]]);
  });

  it("keys of another shape are unknown keys", async () => {
    const { apply, problems } = await stateOf();
    const keys = [
      "unreadable/event",
      "unreadable/event/",
      "unreadable//replica-b",
      "unreadable/event/replica-b/1",
    ];
    apply(keys.map((key) => rec(key, [])));
    expect(problems).toEqual(keys.map((key) => problem(key, UNKNOWN)));
  });
});

describe("other records", () => {
  it("meta records are ignored, whatever their value", async () => {
    const { apply, problems, lifecycle } = await stateOf();
    apply([rec("meta/started/replica-b", { startedAt: T0 }), rec("meta", "{")]);
    expect(problems).toEqual([]);
    expect(lifecycle.coverage.gapCounts).toEqual(new Map());
  });

  it("a tombstone is nothing, whatever its key", async () => {
    const { apply, problems, lifecycle } = await stateOf();
    apply([rec("coverage/events/0", null), rec("nonsense", null), rec(null, null)]);
    expect(problems).toEqual([]);
    expect([...lifecycle.coverage.partitions]).toEqual([]);
  });

  it("an unknown key restarts every window; with no partition known, the subjects' topics count a gap", async () => {
    const { lifecycle, apply, problems } = await stateOf();
    apply([rec("nonsense/1", { a: 1 }), rec(null, "1"), rec("", "1")]);
    expect(problems).toEqual([
      problem("nonsense/1", UNKNOWN),
      problem("(no key)", UNKNOWN),
      problem("(no key)", UNKNOWN),
    ]);
    expect(lifecycle.coverage.gaps).toEqual([]);
    expect(lifecycle.coverage.gapCounts).toEqual(new Map([["events", 3]]));
  });

  it("a batch the decode guard could not decode is lost evidence: every window restarts, never tombstones", async () => {
    const { lifecycle, apply, problems, gaps, setNow } = await stateOf();
    lifecycle.coverage.restore([
      coverage("events", 0, T0 - 60_000, "3"),
      coverage("events", 1, T0 - 60_000, "3"),
    ]);
    setNow(T0 + 3);
    apply([undecodable(41)]);
    const detail = problem("batch ending at offset 41", "cannot be decoded: every window restarts");
    expect(problems).toEqual([detail]);
    expect(gaps()).toEqual([
      ["events/0", "state-unreadable", T0 + 3, detail],
      ["events/1", "state-unreadable", T0 + 3, detail],
    ]);
  });
});
