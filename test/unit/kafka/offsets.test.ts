import type { Admin } from "kafkajs";
import { describe, expect, it } from "vitest";
import { measureGroupLag } from "../../../src/kafka/offsets.js";

/** The part of a kafkajs admin the lag measurement uses, answering from fixed offsets, in call order. */
function fakeAdmin(name: string, calls: string[], high: string, committed = "-1"): Admin {
  return {
    fetchTopicOffsets: async () => {
      calls.push(`${name} ends`);
      return [{ partition: 0, offset: high, high, low: "0" }];
    },
    fetchOffsets: async () => {
      calls.push(`${name} committed`);
      return [{ topic: "events", partitions: [{ partition: 0, offset: committed, metadata: null }] }];
    },
  } as unknown as Admin;
}

describe("the partition ends a lag measurement reads", () => {
  it("reads the log end before the stable offset, so a record appended in between is no open transaction", async () => {
    const calls: string[] = [];
    // the log end was 10; a record appended since moved the stable offset to 11
    const { lag, ends } = await measureGroupLag(
      fakeAdmin("committed", calls, "11", "11"),
      "group",
      ["events"],
      () => undefined,
      fakeAdmin("log-end", calls, "10"),
    );
    expect(calls[0]).toBe("log-end ends");
    expect(ends.get("events")?.get(0)).toEqual({ stable: 11n, logEnd: 11n });
    expect(lag.get("events")?.get(0)).toBe(0);
  });

  it("finds a transaction open where the log end lies past the stable offset", async () => {
    const { lag, ends } = await measureGroupLag(
      fakeAdmin("committed", [], "10", "7"),
      "group",
      ["events"],
      () => undefined,
      fakeAdmin("log-end", [], "60"),
    );
    expect(ends.get("events")?.get(0)).toEqual({ stable: 10n, logEnd: 60n });
    expect(lag.get("events")?.get(0)).toBe(3);
  });

  it("without a log-end admin, measures the lag alone", async () => {
    const { lag, ends } = await measureGroupLag(
      fakeAdmin("committed", [], "10"),
      "group",
      ["events"],
      () => undefined,
    );
    expect(lag.get("events")?.get(0)).toBe(10);
    expect(ends.size).toBe(0);
  });
});
