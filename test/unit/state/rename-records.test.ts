import { describe, expect, it } from "vitest";
import type { Message } from "kafkajs";
import type { FieldOfInterest } from "../../../src/fields/interest.js";
import { RenameLedger } from "../../../src/fields/rename-ledger.js";
import { EVERY_WRITER, bytesOf, type RenameRow } from "../../../src/fields/rename-rows.js";
import type { FieldRow, SubjectFieldsView } from "../../../src/fields/tallies.js";
import { StateMessages } from "../../../src/state/messages.js";
import { MAX_RENAME_RECORD_BYTES } from "../../../src/state/shared.js";
import { T0, coverage, rec, stateOf } from "./fixture.js";

// The state topic's records of a rename's progress (`rename/<subject>/<field>/<replacement>/<replica>`):
// what each means to replica-a, what is unreadable or unknown, and what replica-a publishes.

const KEY = "rename/event/%2Famount/%2Ftotal";
const row = (producer: string, records: number[], lastAt: number[], writer = "1.1.0"): RenameRow => ({
  producer,
  writer,
  records,
  lastAt,
});
const problem = (key: string, what: string) => `state topic sw-state: record ${key} ${what}`;
const text = (messages: Message[]) =>
  messages.map((m) => [m.key, m.value === null ? null : JSON.parse(String(m.value))]);

/** The tallies of `event` as the ledger reads them: /total replaces /amount, and `rows` counted. */
function views(rows: FieldRow[] = []) {
  const view: SubjectFieldsView = {
    subject: "event",
    fields: [{ pointer: "/amount" }, { pointer: "/total" }] as FieldOfInterest[],
    overflow: 0,
    unresolvedRefs: [],
    truncated: false,
    rows,
    pairs: [{ replaced: 0, replacement: 1 }],
  };
  return { subject: (name: string) => (name === "event" ? view : undefined), subjects: () => [view] };
}

const tallyRow = (producer: string, renames: number[], renameLastAt: number[]) =>
  ({
    labels: { subject: "event", producer, writer_version: "1.1.0" },
    renames,
    renameLastAt,
  }) as unknown as FieldRow;

async function withRenames(rows: FieldRow[] = []) {
  const state = await stateOf();
  const ledger = new RenameLedger(views(rows));
  const messages = new StateMessages("replica-a", "sw-state", undefined, ledger);
  const problems: string[] = [];
  const apply = (records: ReturnType<typeof rec>[], loading = false) =>
    records.forEach((r) => messages.apply(state.lifecycle, r, loading, (p) => problems.push(p)));
  const rowsOf = () => ledger.rows(views(rows).subjects()[0]!, 0);
  return { ...state, ledger, messages, apply, problems, rowsOf };
}

describe("rename records", () => {
  it("another replica's rows are kept apart, its latest replacing the one before, and merged with this replica's", async () => {
    const { apply, rowsOf, problems, ledger } = await withRenames([
      tallyRow("billing", [2, 0, 0, 0, 0], [T0, 0, 0, 0, 0]),
    ]);
    apply([rec(`${KEY}/replica-b`, { rows: [row("billing", [1, 3, 0, 0, 0], [T0 - 5, T0 + 7, 0, 0, 0])] })]);
    apply([rec(`${KEY}/replica-b`, { rows: [row("billing", [1, 4, 0, 0, 0], [T0 - 5, T0 + 9, 0, 0, 0])] })]);
    apply([rec(`${KEY}/replica-c`, { rows: [row("web", [0, 0, 6, 0, 0], [0, 0, T0, 0, 0])] })]);
    expect(rowsOf()).toEqual([
      row("billing", [3, 4, 0, 0, 0], [T0, T0 + 9, 0, 0, 0]),
      row("web", [0, 0, 6, 0, 0], [0, 0, T0, 0, 0]),
    ]);
    // none of it is this replica's own: what it saves and publishes is its own tallies only
    expect(ledger.own().map((e) => e.rows)).toEqual([[row("billing", [2, 0, 0, 0, 0], [T0, 0, 0, 0, 0])]]);
    // a tombstone takes a replica's rows out
    apply([rec(`${KEY}/replica-c`, null)]);
    expect(rowsOf()).toEqual([row("billing", [3, 4, 0, 0, 0], [T0, T0 + 9, 0, 0, 0])]);
    expect(problems).toEqual([]);
  });

  it("this replica's previous run's (read on start) are its own count, the last one read; after the start its own come back ignored", async () => {
    const { apply, rowsOf, ledger } = await withRenames([
      tallyRow("billing", [2, 0, 0, 0, 0], [T0, 0, 0, 0, 0]),
    ]);
    apply(
      [
        // a topic not yet compacted holds an older value of the key too: it is replaced, not added
        rec(`${KEY}/replica-a`, { rows: [row("billing", [1, 0, 0, 0, 0], [T0 - 9, 0, 0, 0, 0])] }),
        rec(`${KEY}/replica-a`, { rows: [row("billing", [5, 1, 0, 0, 0], [T0 - 3, T0 - 2, 0, 0, 0])] }),
      ],
      true,
    );
    expect(rowsOf()).toEqual([row("billing", [7, 1, 0, 0, 0], [T0, T0 - 2, 0, 0, 0])]);
    expect(ledger.own().map((e) => e.rows)).toEqual([
      [row("billing", [7, 1, 0, 0, 0], [T0, T0 - 2, 0, 0, 0])],
    ]);
    apply([rec(`${KEY}/replica-a`, { rows: [row("billing", [100, 0, 0, 0, 0], [T0, 0, 0, 0, 0])] })]);
    expect(rowsOf()).toEqual([row("billing", [7, 1, 0, 0, 0], [T0, T0 - 2, 0, 0, 0])]);
  });

  it("an unreadable one, or one of a rename this config does not name, is reported and left out, never a coverage gap", async () => {
    const { apply, rowsOf, problems, gaps, lifecycle } = await withRenames();
    lifecycle.coverage.restore([coverage("events", 0, T0 - 60_000, "3")]);
    const good = row("billing", [1, 0, 0, 0, 0], [T0, 0, 0, 0, 0]);
    const bad = [
      "{",
      { rows: "all" },
      { rows: [{ ...good, records: [1, 0] }] },
      [good],
      { rows: [good, { producer: "web" }] },
    ];
    apply(bad.map((value) => rec(`${KEY}/replica-b`, value)));
    apply([rec("rename/event/%2Ftotal/%2Famount/replica-b", { rows: [good] })]);
    // of a subject not watched: ignored, as its other records are
    apply([rec("rename/other/%2Famount/%2Ftotal/replica-b", "{")]);
    // a key of the wrong shape is a key this version does not know
    apply([rec(`${KEY}`, { rows: [good] })]);
    const left = "is unreadable: left out of the rename progress";
    expect(problems).toEqual([
      ...bad.map(() => problem(`${KEY}/replica-b`, left)),
      problem(
        "rename/event/%2Ftotal/%2Famount/replica-b",
        "names a rename this replica's config does not: left out of the rename progress",
      ),
      problem(KEY, "has a key this version does not know: every window restarts"),
    ]);
    expect(rowsOf()).toEqual([]);
    expect(gaps().filter((g) => !String(g[3]).includes("does not know"))).toEqual([]);
  });

  it("publishes its own rows when changed, bounded, and a tombstone for its own record of a rename its config dropped", async () => {
    const tallies = [tallyRow("billing", [2, 0, 0, 0, 0], [T0, 0, 0, 0, 0])];
    const { messages, apply, lifecycle } = await withRenames(tallies);
    apply([rec("rename/event/%2Fold/%2Ftotal/replica-a", { rows: [] })], true);
    apply([rec(`${KEY}/replica-a`, { rows: [row("web", [0, 1, 0, 0, 0], [0, T0 - 1, 0, 0, 0])] })], true);
    const renames = (m: Message[]) => text(m.filter((x) => String(x.key).startsWith("rename/")));
    expect(renames(messages.publishMessages(lifecycle, []))).toEqual([
      ["rename/event/%2Fold/%2Ftotal/replica-a", null],
      [
        `${KEY}/replica-a`,
        {
          rows: [
            row("web", [0, 1, 0, 0, 0], [0, T0 - 1, 0, 0, 0]),
            row("billing", [2, 0, 0, 0, 0], [T0, 0, 0, 0, 0]),
          ],
        },
      ],
    ]);
    // nothing changed: nothing sent again; a record counted: sent
    expect(renames(messages.publishMessages(lifecycle, []))).toEqual([]);
    tallies[0]!.renames[0] = 3;
    expect(renames(messages.publishMessages(lifecycle, [])).map(([, v]) => v)).toEqual([
      {
        rows: [
          row("web", [0, 1, 0, 0, 0], [0, T0 - 1, 0, 0, 0]),
          row("billing", [3, 0, 0, 0, 0], [T0, 0, 0, 0, 0]),
        ],
      },
    ]);
    // the changes published every second leave them to the full publish
    expect(renames(messages.changedMessages(lifecycle))).toEqual([]);
  });

  it("past the bound, a producer's writer versions are published folded into one row", async () => {
    // about 80 bytes a row: 7,000 writer versions of one producer pass 500 KB
    const many = Array.from(
      { length: 7_000 },
      (_, i) =>
        ({
          labels: { subject: "event", producer: "billing", writer_version: `1.${i}.0` },
          renames: [1, 0, 0, 0, 0],
          renameLastAt: [T0 + i, 0, 0, 0, 0],
        }) as unknown as FieldRow,
    );
    const { messages, lifecycle, ledger } = await withRenames(many);
    expect(bytesOf(ledger.own()[0]!.rows)).toBeGreaterThan(MAX_RENAME_RECORD_BYTES);
    const sent = messages.publishMessages(lifecycle, []).filter((m) => String(m.key).startsWith("rename/"));
    expect(text(sent)).toEqual([
      [
        `${KEY}/replica-a`,
        { rows: [row("billing", [7_000, 0, 0, 0, 0], [T0 + 6_999, 0, 0, 0, 0], EVERY_WRITER)] },
      ],
    ]);
    expect(messages.shared.renamesFolded).toBe(1);
  });
});
