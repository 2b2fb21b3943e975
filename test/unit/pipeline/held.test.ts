// Records held for the lookup of their schema id, pure: promises stand in for the registry's answers.
import { describe, expect, it } from "vitest";

import { HeldRecords } from "../../../src/pipeline/held.js";
import type { SourceRecord } from "../../../src/pipeline/record.js";
import type { IdLookups } from "../../../src/catalog/lookups.js";

const lookups = (wait: number, waitRecords: number): IdLookups => ({
  request: () => undefined,
  requestGuid: () => undefined,
  wait,
  waitRecords,
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

describe("HeldRecords", () => {
  it("holds copies (the source refills its one record object) and hands each back once its lookup settled", async () => {
    const held = new HeldRecords();
    const answer = deferred();
    const record: Mutable<SourceRecord> = {
      topic: "t",
      partition: 0,
      offset: "0",
      timestamp: 1,
      key: Buffer.from("k0"),
      headers: { producer: Buffer.from("web") },
      value: Buffer.from("v0"),
    };
    const limits = lookups(60_000, 10);
    for (let i = 0; i < 3; i++) {
      record.offset = String(i);
      record.key = Buffer.from(`k${i}`);
      record.value = Buffer.from(`v${i}`);
      record.headers = { producer: Buffer.from("web") };
      expect(held.hold(record, answer.promise, limits)).toBe(true);
      // The memory behind the buffers is reused too.
      record.value.fill(0);
      (record.headers!["producer"] as Buffer).fill(0);
    }
    expect(held.size).toBe(3);
    const seen: string[] = [];
    const settled = held.settle((r) =>
      seen.push(`${r.offset}:${r.key!.toString()}:${r.value!.toString()}:${String(r.headers!["producer"])}`),
    );
    let done = false;
    void settled.then(() => (done = true));
    await Promise.resolve();
    expect([seen, done]).toEqual([[], false]);
    answer.resolve();
    await settled;
    expect(seen).toEqual(["0:k0:v0:web", "1:k1:v1:web", "2:k2:v2:web"]);
    expect(held.size).toBe(0);
    // Handed back once: a later settle has nothing to give.
    await held.settle((r) => seen.push(r.offset));
    expect(seen).toHaveLength(3);
  });

  it("holds nothing without a wait, and no more records than waitRecords", () => {
    const held = new HeldRecords();
    const record: SourceRecord = {
      topic: "t",
      partition: 0,
      offset: "0",
      timestamp: 1,
      key: null,
      headers: undefined,
      value: Buffer.from("x"),
    };
    const pending = new Promise<void>(() => undefined);
    expect(held.hold(record, pending, lookups(0, 10))).toBe(false);
    expect([1, 2, 3].map(() => held.hold(record, pending, lookups(1_000, 2)))).toEqual([true, true, false]);
    expect(held.size).toBe(2);
  });

  it("hands a record back when its wait ends though the lookup never answers", async () => {
    let now = 0;
    const held = new HeldRecords(() => now);
    const record: SourceRecord = {
      topic: "t",
      partition: 0,
      offset: "9",
      timestamp: 1,
      key: null,
      headers: undefined,
      value: null,
    };
    held.hold(record, new Promise<void>(() => undefined), lookups(30, 10));
    now = 10;
    const seen: string[] = [];
    // The wait is measured from when the record was held: 20 ms are left.
    const started = Date.now();
    await held.settle((r) => seen.push(r.offset));
    expect(seen).toEqual(["9"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it("has a settle wait for the records an earlier settle is still handing back", async () => {
    const held = new HeldRecords();
    const answer = deferred();
    const record: SourceRecord = {
      topic: "t",
      partition: 1,
      offset: "5",
      timestamp: 1,
      key: null,
      headers: undefined,
      value: null,
    };
    held.hold(record, answer.promise, lookups(60_000, 10));
    const seen: string[] = [];
    const first = held.settle((r) => seen.push(`first ${r.offset}`));
    // Another partition's flush: nothing of its own is held, but an offset it commits may come after.
    let secondDone = false;
    const second = held.settle(() => seen.push("second")).then(() => (secondDone = true));
    await Promise.resolve();
    expect(secondDone).toBe(false);
    answer.resolve();
    await Promise.all([first, second]);
    expect(seen).toEqual(["first 5"]);
  });
});
