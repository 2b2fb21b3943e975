import { describe, expect, it } from "vitest";
import { OpenTransactions } from "../../../src/lifecycle/transactions.js";

// The bookkeeping of open transactions itself (transactions.test.ts has it through Coverage and the
// verdicts): one entry per topic and partition, when a topic was last measured, and forgetting.

const ends = (stable: bigint, logEnd: bigint) => ({ stable, logEnd });

describe("open transactions, per partition", () => {
  it("are kept apart per topic and partition", () => {
    const open = new OpenTransactions();
    open.measured("events", 0, ends(10n, 60n), 0, 1_000);
    open.measured("events", 1, ends(5n, 7n), 0, 1_000);
    open.measured("orders", 0, ends(0n, 3n), 0, 1_000);
    expect(open.get("events", 0)).toEqual({
      topic: "events",
      partition: 0,
      since: 1_000,
      records: 50,
      until: 60n,
    });
    expect(open.get("events", 1)).toEqual({
      topic: "events",
      partition: 1,
      since: 1_000,
      records: 2,
      until: 7n,
    });
    expect(open.get("orders", 0)).toEqual({
      topic: "orders",
      partition: 0,
      since: 1_000,
      records: 3,
      until: 3n,
    });
    expect(open.get("orders", 1)).toBeUndefined();
    expect([...open.all()].map((t) => `${t.topic}/${t.partition}`)).toEqual([
      "events/0",
      "events/1",
      "orders/0",
    ]);
    // reading one partition past its end ends that one only
    open.readTo("events", 1, "6");
    expect([...open.all()].map((t) => `${t.topic}/${t.partition}`)).toEqual(["events/0", "orders/0"]);
  });

  it("end when the group's committed offset reaches exactly where the log ended", () => {
    const open = new OpenTransactions();
    open.measured("events", 0, ends(10n, 60n), 0, 1_000);
    // stable 61, lag 2: committed 59, one record short of 60
    open.measured("events", 0, ends(61n, 61n), 2, 2_000);
    expect(open.get("events", 0)?.until).toBe(60n);
    // stable 61, lag 1: committed 60
    open.measured("events", 0, ends(61n, 61n), 1, 3_000);
    expect(open.get("events", 0)).toBeUndefined();
  });

  it("end when this member has processed exactly the last record before where the log ended", () => {
    const open = new OpenTransactions();
    open.measured("events", 0, ends(10n, 60n), 0, 1_000);
    open.readTo("events", 0, "58");
    expect(open.get("events", 0)?.until).toBe(60n);
    open.readTo("events", 0, "59");
    expect(open.get("events", 0)).toBeUndefined();
  });

  it("never move their end back when a later measurement finds the log shorter", () => {
    const open = new OpenTransactions();
    open.measured("events", 0, ends(10n, 60n), 0, 1_000);
    open.measured("events", 0, ends(10n, 40n), 0, 2_000);
    expect(open.get("events", 0)).toEqual({
      topic: "events",
      partition: 0,
      since: 1_000,
      records: 30,
      until: 60n,
    });
  });
});

describe("when a topic's ends were last measured", () => {
  it("is the latest measurement's start, whatever order they finish in", () => {
    const open = new OpenTransactions();
    expect(open.measuredAt("events")).toBeUndefined();
    open.measured("events", 0, ends(10n, 10n), 0, 5_000);
    open.measured("events", 1, ends(10n, 10n), 0, 3_000);
    expect(open.measuredAt("events")).toBe(5_000);
    open.measured("events", 0, ends(10n, 10n), 0, 7_000);
    expect(open.measuredAt("events")).toBe(7_000);
    expect(open.measuredAt("orders")).toBeUndefined();
  });
});

describe("forgetting", () => {
  function three() {
    const open = new OpenTransactions();
    open.measured("events", 0, ends(10n, 60n), 0, 1_000);
    open.measured("events", 1, ends(10n, 60n), 0, 1_000);
    open.measured("orders", 0, ends(10n, 60n), 0, 1_000);
    const left = () => [...open.all()].map((t) => `${t.topic}/${t.partition}`);
    return { open, left };
  }

  it("a partition forgets that partition only", () => {
    const { open, left } = three();
    open.forget("events", 0);
    expect(left()).toEqual(["events/1", "orders/0"]);
  });

  it("a topic forgets every partition of that topic, and no other topic's", () => {
    const { open, left } = three();
    open.forget("events");
    expect(left()).toEqual(["orders/0"]);
  });
});
