import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { TrafficHistory } from "../../../src/history/history.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";
import { HistoryShare, readSharedHistory } from "../../../src/history/share.js";

// The traffic history through the state topic: a record per bucket, sent again only when it
// changed, a tombstone once it leaves the ring; other replicas' buckets drawn with the own ones.

const BUCKET = 1_000;
const NOW = 100 * BUCKET + 500;

function setup() {
  const now = NOW;
  const history = new TrafficHistory({ buckets: 4, now: () => now });
  const share = new HistoryShare(history);
  return { history, share };
}

const bucket = (versions: [string, string, number][], fields: [string, string, number, number][] = []) => ({
  bucketMs: BUCKET,
  versions,
  fields,
});

describe("the traffic history's share", () => {
  it("publishes each own bucket once, again when it changed, and a tombstone when it left the ring", () => {
    const { history, share } = setup();
    history.adopt("pay", BUCKET, 99, { versions: [["web", "1.1.0", 3]], fields: [] });
    history.adopt("pay", BUCKET, 100, { versions: [["web", "1.1.0", 1]], fields: [["web", "/total", 1, 1]] });
    expect(share.records()).toEqual([
      { parts: ["pay", 99], value: JSON.stringify(bucket([["web", "1.1.0", 3]])) },
      {
        parts: ["pay", 100],
        value: JSON.stringify(bucket([["web", "1.1.0", 1]], [["web", "/total", 1, 1]])),
      },
    ]);
    expect(share.records()).toEqual([]);
    history.adopt("pay", BUCKET, 100, { versions: [["web", "1.1.0", 1]], fields: [] });
    expect(share.records()).toEqual([
      {
        parts: ["pay", 100],
        value: JSON.stringify(bucket([["web", "1.1.0", 2]], [["web", "/total", 1, 1]])),
      },
    ]);
    // Bucket 103 makes 99 leave a ring of 4.
    history.adopt("pay", BUCKET, 103, { versions: [["web", "1.1.0", 5]], fields: [] });
    expect(share.records()).toEqual([
      { parts: ["pay", 103], value: JSON.stringify(bucket([["web", "1.1.0", 5]])) },
      { parts: ["pay", 99], value: null },
    ]);
  });

  it("draws another replica's buckets with its own, summed per line, in name order; a tombstone takes one back", () => {
    const { history, share } = setup();
    history.adopt("pay", BUCKET, 100, { versions: [["web", "1.1.0", 2]], fields: [["web", "/total", 2, 1]] });
    expect(
      share.apply(
        "b",
        false,
        "pay",
        100,
        bucket([
          ["web", "1.1.0", 3],
          ["billing", "1.0.0", 4],
        ]),
      ),
    ).toBe(true);
    expect(share.apply("b", false, "pay", 99, bucket([], [["web", "/total", 5, 5]]))).toBe(true);
    // Older than the window, or counted in other buckets (another drain window): not drawn.
    expect(share.apply("c", false, "pay", 90, bucket([["web", "1.1.0", 7]]))).toBe(true);
    expect(share.apply("c", false, "pay", 100, { ...bucket([["web", "1.1.0", 7]]), bucketMs: 2_000 })).toBe(
      true,
    );
    expect(share.view("pay")).toEqual({
      subject: "pay",
      bucketMs: BUCKET,
      from: 97 * BUCKET,
      buckets: 4,
      versions: [
        { producer: "billing", version: "1.0.0", records: [0, 0, 0, 4] },
        { producer: "web", version: "1.1.0", records: [0, 0, 0, 5] },
      ],
      fields: [{ producer: "web", field: "/total", records: [0, 0, 5, 2], present: [0, 0, 5, 1] }],
    });
    // The own history is left as it was: nothing of b's is counted twice.
    expect(history.view("pay")!.versions).toEqual([
      { producer: "web", version: "1.1.0", records: [0, 0, 0, 2] },
    ]);
    share.apply("b", false, "pay", 100, null);
    expect(share.view("pay")!.versions).toEqual([
      { producer: "web", version: "1.1.0", records: [0, 0, 0, 2] },
    ]);
  });

  it("a subject only other replicas read is drawn from their buckets", () => {
    const { share } = setup();
    share.apply("b", false, "pay", 100, bucket([["web", "1.1.0", 3]]));
    expect(share.view("pay")).toEqual({
      subject: "pay",
      bucketMs: BUCKET,
      from: 97 * BUCKET,
      buckets: 4,
      versions: [{ producer: "web", version: "1.1.0", records: [0, 0, 0, 3] }],
      fields: [],
    });
    expect(share.view("other")).toBeUndefined();
  });

  it("a previous run's buckets become its own once the first read ends, the last value of each key only", () => {
    const { history, share } = setup();
    share.apply("a", true, "pay", 100, bucket([["web", "1.1.0", 1]]));
    share.apply("a", true, "pay", 100, bucket([["web", "1.1.0", 2]]));
    share.apply("a", true, "pay", 99, bucket([["web", "1.1.0", 9]]));
    share.apply("a", true, "pay", 99, null);
    expect(history.view("pay")).toBeUndefined();
    share.loaded();
    expect(history.view("pay")!.versions).toEqual([
      { producer: "web", version: "1.1.0", records: [0, 0, 0, 2] },
    ]);
  });

  it("reads only well-formed buckets within the bound on lines", () => {
    const { share } = setup();
    expect(
      share.apply("b", false, "pay", 100, { bucketMs: BUCKET, versions: [["web", 3]], fields: [] }),
    ).toBe(false);
    expect(share.apply("b", false, "pay", 100, bucket([["web", "1.1.0", -1]]))).toBe(false);
    expect(share.apply("b", false, "pay", 100, { ...bucket([]), bucketMs: 0 })).toBe(false);
    expect(share.apply("b", false, "pay", 100, "nope")).toBe(false);
    expect(
      readSharedHistory(
        bucket([
          ["a", "1", 1],
          ["b", "1", 1],
        ]),
        1,
      ),
    ).toBeUndefined();
    expect(readSharedHistory(bucket([["a", "1", 1]]), 1)).toEqual(bucket([["a", "1", 1]]));
  });

  it("a late record counted in an older bucket is published again, though only the newest buckets are looked at each time", async () => {
    const HOUR = 3_600_000;
    const T0 = Date.UTC(2026, 11, 1, 8);
    const dir = await writeTree({
      "pay/1.1.json": { properties: { id: { type: "integer" } }, required: ["id"] },
    });
    const config = parseConfig(
      'subjects:\n  - name: pay\n    topics: [payments]\n    schemas: pay\n    drainWindow: 4h\n    versions:\n      "1.1.0": { status: active }\n',
      join(dir, "config.yaml"),
    );
    const history = new TrafficHistory({ buckets: 4, now: () => T0 + 7 * HOUR });
    const share = new HistoryShare(history);
    const pipeline = new Pipeline(await loadCatalog(config), config, { counted: [history.listener] });
    const send = (producer: string, at: number) =>
      pipeline.process(
        record({ id: 1 }, { producer, "schema-version": "1.1" }, { topic: "payments", timestamp: at }),
      );
    const index = T0 / HOUR;
    send("web", T0 + 7 * HOUR);
    expect(share.records().map((r) => r.parts)).toEqual([["pay", index + 7]]);
    // billing's first record, observed at T0 + 5h: its own bucket, two before the newest.
    send("billing", T0 + 5 * HOUR);
    expect(share.records()).toEqual([
      {
        parts: ["pay", index + 5],
        value: JSON.stringify({ bucketMs: HOUR, versions: [["billing", "1.1.0", 1]], fields: [] }),
      },
    ]);
    expect(share.records()).toEqual([]);
  });
});
