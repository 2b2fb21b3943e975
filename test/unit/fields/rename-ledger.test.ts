import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { RenameLedger } from "../../../src/fields/rename-ledger.js";
import {
  EVERY_WRITER,
  boundRows,
  bytesOf,
  mergeRows,
  readRows,
  type RenameRow,
} from "../../../src/fields/rename-rows.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";

// A rename's rows beyond one process: read from a record or the state file (exactly, or not at all),
// merged over runs and replicas (counts added, last times by maximum), saved and restored.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const row = (producer: string, records: number[], lastAt: number[], writer = "1.1.0"): RenameRow => ({
  producer,
  writer,
  records,
  lastAt,
});

describe("rename rows", () => {
  it("reads rows exactly, and nothing of a value with one unreadable row", () => {
    const rows = [
      row("billing", [4, 1, 0, 0, 0], [T0, T0 + 5, 0, 0, 0]),
      row("web", [0, 0, 3, 0, 1], [0, 0, T0, 0, T0]),
    ];
    expect(readRows(JSON.parse(JSON.stringify(rows)))).toEqual(rows);
    expect(readRows([])).toEqual([]);
    const good = { producer: "billing", writer: "1.1.0", records: [1, 0, 0, 0, 0], lastAt: [T0, 0, 0, 0, 0] };
    const bad = [
      undefined,
      null,
      "rows",
      { rows: [good] },
      [null],
      [{ ...good, producer: 7 }],
      [{ ...good, writer: null }],
      [{ ...good, records: [1, 0, 0, 0] }],
      [{ ...good, records: [1, 0, 0, 0, 0, 0] }],
      [{ ...good, records: [-1, 0, 0, 0, 0] }],
      [{ ...good, records: [1.5, 0, 0, 0, 0] }],
      [{ ...good, records: ["1", 0, 0, 0, 0] }],
      [{ ...good, lastAt: [-5, 0, 0, 0, 0] }],
      [{ ...good, lastAt: "today" }],
      [good, { ...good, lastAt: [T0, 0, 0, 0] }],
    ];
    expect(bad.map(readRows)).toEqual(bad.map(() => undefined));
  });

  it("merges views of a rename: counts of a producer and writer added, each form's last time the latest", () => {
    const a = [
      row("billing", [4, 1, 0, 0, 0], [T0, T0 + 5, 0, 0, 0]),
      row("web", [0, 2, 0, 0, 0], [0, T0, 0, 0, 0]),
    ];
    const b = [
      row("billing", [3, 0, 2, 0, 1], [T0 + 9, 0, T0 + 2, 0, T0 + 1]),
      row("billing", [1, 0, 0, 0, 0], [T0 + 20, 0, 0, 0, 0], "1.0.0"),
    ];
    expect(mergeRows([a, b])).toEqual([
      row("billing", [7, 1, 2, 0, 1], [T0 + 9, T0 + 5, T0 + 2, 0, T0 + 1]),
      row("web", [0, 2, 0, 0, 0], [0, T0, 0, 0, 0]),
      row("billing", [1, 0, 0, 0, 0], [T0 + 20, 0, 0, 0, 0], "1.0.0"),
    ]);
    // The views are left as they were.
    expect(a[0]!.records).toEqual([4, 1, 0, 0, 0]);
  });

  it("bounds a record: writer versions folded per producer, then the producers seen longest ago left out", () => {
    const rows = [
      row("billing", [4, 0, 0, 0, 0], [T0, 0, 0, 0, 0], "1.0.0"),
      row("billing", [0, 2, 0, 0, 0], [0, T0 + 3, 0, 0, 0]),
      row("web", [0, 0, 5, 0, 0], [0, 0, T0 + 1, 0, 0]),
    ];
    expect(boundRows(rows, bytesOf(rows))).toEqual({ rows, folded: false, leftOut: 0 });
    const folded = [
      row("billing", [4, 2, 0, 0, 0], [T0, T0 + 3, 0, 0, 0], EVERY_WRITER),
      row("web", [0, 0, 5, 0, 0], [0, 0, T0 + 1, 0, 0], EVERY_WRITER),
    ];
    expect(boundRows(rows, bytesOf(rows) - 1)).toEqual({ rows: folded, folded: true, leftOut: 0 });
    // web's last record is older than billing's: it goes first.
    expect(boundRows(rows, bytesOf(folded) - 1)).toEqual({ rows: [folded[0]], folded: true, leftOut: 1 });
    expect(boundRows(rows, 2)).toEqual({ rows: [], folded: true, leftOut: 2 });
  });
});

// pay 1.1 declares amount and total: the config says total replaces amount.
async function setup() {
  const dir = await writeTree({
    "pay/1.1.json": { properties: { id: {}, amount: {}, total: {} }, required: ["id"] },
  });
  const config = parseConfig(
    "subjects:\n  - name: pay\n    topics: [payments]\n    schemas: pay\n    fields:\n      replaces:\n        /total: /amount\n",
    join(dir, "config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const fields = new FieldTallies(catalog, undefined, new Map([["pay", config.subjects[0]!.fields!]]));
  const pipeline = new Pipeline(catalog, config, { counted: [fields.listener] });
  const send = (producer: string, value: unknown) =>
    pipeline.process(record(value, { producer, "schema-version": "1.1" }, { topic: "payments" }));
  return { fields, send };
}

const counts = (ledger: RenameLedger, now: number) =>
  ledger
    .progress(now, () => 3600)
    .get("pay")![0]!
    .producers.map((p) => `${p.producer} ${Object.values(p.records).join("/")} ${p.step}`);

describe("the rename ledger", () => {
  it("adds the saved counts of previous runs and every other replica's to this run's tallies", async () => {
    const { fields, send } = await setup();
    const ledger = new RenameLedger(fields);
    send("billing", { id: 1, amount: 1 });
    send("billing", { id: 2, amount: 1, total: 1 });
    const at = fields.subject("pay")!.rows[0]!.renameLastAt[0]!;
    expect(
      ledger.restore([
        {
          subject: "pay",
          field: "/amount",
          replacement: "/total",
          rows: [row("billing", [5, 0, 0, 0, 0], [at - 10, 0, 0, 0, 0])],
        },
      ]),
    ).toBeUndefined();
    ledger.peerRecord("replica-b", "pay", "/amount", "/total", [
      row("web", [0, 0, 7, 0, 0], [0, 0, at, 0, 0]),
    ]);
    ledger.peerRecord("replica-c", "pay", "/amount", "/total", [
      row("billing", [0, 2, 0, 0, 1], [0, at + 1, 0, 0, at]),
    ]);
    expect(counts(ledger, at)).toEqual(["billing 6/3/0/0/1 add", "web 0/0/7/0/0 done"]);
    // A replica's latest record replaces its earlier one; its tombstone takes it out.
    ledger.peerRecord("replica-b", "pay", "/amount", "/total", [
      row("web", [0, 0, 9, 0, 0], [0, 0, at, 0, 0]),
    ]);
    expect(counts(ledger, at)).toEqual(["billing 6/3/0/0/1 add", "web 0/0/9/0/0 done"]);
    ledger.peerRecord("replica-b", "pay", "/amount", "/total", null);
    expect(counts(ledger, at)).toEqual(["billing 6/3/0/0/1 add"]);
    // What is saved is this replica's own only: previous runs and this one, never another replica's.
    expect(ledger.own()).toEqual([
      {
        subject: "pay",
        field: "/amount",
        replacement: "/total",
        rows: [row("billing", [6, 1, 0, 0, 0], [at, at, 0, 0, 0])],
      },
    ]);
  });

  it("round-trips through the state file's section, and a restart counts on from it", async () => {
    const first = await setup();
    const ledger = new RenameLedger(first.fields);
    first.send("billing", { id: 1, amount: 1 });
    first.send("web", { id: 1, amount: 1, total: 1 });
    first.send("app", { id: 1 });
    // Every record observed at its timestamp (no clock runs here): the steps are read at that time.
    const at = Math.max(...first.fields.subject("pay")!.rows.flatMap((r) => r.renameLastAt));
    const before = ledger.progress(at, () => 3600);
    expect(counts(ledger, at)).toEqual([
      "app 0/0/0/1/0 neither",
      "billing 1/0/0/0/0 add",
      "web 0/1/0/0/0 switch",
    ]);
    const section = JSON.parse(JSON.stringify(ledger.toJSON())) as unknown;

    const second = await setup();
    const restored = new RenameLedger(second.fields);
    expect(restored.restore(section)).toBeUndefined();
    expect(restored.progress(at, () => 3600)).toEqual(before);
    expect(restored.toJSON()).toEqual(section);
    second.send("billing", { id: 2, total: 1 });
    expect(counts(restored, at)).toEqual([
      "app 0/0/0/1/0 neither",
      "billing 1/0/1/0/0 add",
      "web 0/1/0/0/0 switch",
    ]);
  });

  it("tells a rename the config names from one it does not, and an unreadable section from a readable one", async () => {
    const { fields } = await setup();
    const ledger = new RenameLedger(fields);
    expect([
      ledger.known("pay", "/amount", "/total"),
      ledger.known("pay", "/total", "/amount"),
      ledger.known("pay", "/id", "/total"),
      ledger.known("other", "/amount", "/total"),
    ]).toEqual(["known", "unknown", "unknown", "unwatched"]);
    const entry = { subject: "pay", field: "/amount", replacement: "/total", rows: [] };
    expect([
      ledger.restore(undefined),
      ledger.restore({}),
      ledger.restore([entry, { ...entry, rows: [{ producer: "web" }] }]),
      ledger.restore([{ ...entry, subject: 1 }]),
      ledger.restore([null]),
    ]).toEqual([
      undefined,
      "the renames section is not a list",
      "entry 1 of the renames section is unreadable",
      "entry 0 of the renames section is unreadable",
      "entry 0 of the renames section is unreadable",
    ]);
    // Nothing of an unreadable section is kept, not even its readable entries.
    expect(ledger.own()).toEqual([]);
    // Saved rows of a rename the config no longer names are left out of the next save.
    ledger.restore([{ ...entry, field: "/id", rows: [row("web", [1, 0, 0, 0, 0], [T0, 0, 0, 0, 0])] }]);
    expect(ledger.own()).toEqual([]);
  });
});
