import { describe, expect, it } from "vitest";
import type { RenameProgress, RenameProducerProgress } from "../../../src/fields/rename-progress.js";
import type { RenameStep } from "../../../src/fields/rename.js";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import { fieldItems } from "../../../src/report/field-attention.js";
import type { ReportSubject } from "../../../src/report/model.js";
import { emptySubject } from "../../helpers/report.js";

// The field-in-use item of a replaced field: what each holdout sends beside it, and the one action
// of the earliest step any of them is at.

const share = (producer: string, records: number, present: number) => ({
  producer,
  records,
  present,
  absent: records - present,
  unknown: 0,
  writers: ["1.1.0"],
  lastPresent: null,
  lastAbsent: null,
  lastUnknown: null,
  over: "7d",
  exact: true,
  inWindow: { present: present > 0, absent: records > present, unknown: false },
});

const amount: FieldVerdict = {
  kind: "drained",
  yes: false,
  reasons: [],
  evidence: { window: "7d" },
  field: "/amount",
  fieldKind: "deprecated",
  version: "1.1.0",
  producers: [share("billing", 100, 12), share("mobile", 40, 40), share("web", 50, 0)],
};

const producer = (name: string, step: RenameStep): RenameProducerProgress => ({
  producer: name,
  records: { old: 0, both: 0, new: 0, neither: 0, unknown: 0 },
  writers: {},
  step,
  words: "",
  lastReplaced: null,
});

const subject = (steps: Record<string, RenameStep>): ReportSubject =>
  emptySubject("pay", {
    versions: [
      { version: "1.0.0", status: "deprecated" },
      { version: "1.1.0", status: "active" },
    ] as ReportSubject["versions"],
    fields: [amount],
    renames: [
      {
        field: "/amount",
        replacement: "/total",
        window: "7d",
        producers: Object.entries(steps).map(([name, step]) => producer(name, step)),
      } satisfies RenameProgress,
    ],
  });

describe("the field-in-use item of a replaced field", () => {
  it("asks the producers that send it without the replacement to add the replacement first", () => {
    expect(fieldItems(subject({ billing: "switch", mobile: "add", web: "done" }))).toEqual([
      {
        level: "watch",
        kind: "field-in-use",
        subject: "pay",
        what: "billing still sends /amount in 12% of its records over the last 7d, beside /total; mobile still sends /amount in 100% of its records over the last 7d, without /total",
        action: "Have mobile send /total beside /amount (step 1 of the rename), before /amount can stop.",
      },
    ]);
  });

  it("once every holdout sends both, asks for consumers to move and the old field to stop", () => {
    expect(
      fieldItems(subject({ billing: "switch", mobile: "switch", web: "done" })).map((i) => [
        i.what,
        i.action,
      ]),
    ).toEqual([
      [
        "billing still sends /amount in 12% of its records over the last 7d, beside /total; mobile still sends /amount in 100% of its records over the last 7d, beside /total",
        "Move consumers to /total, then stop sending /amount from billing and mobile before removing it in 2.0.0.",
      ],
    ]);
  });

  it("without a rename, says what it said before", () => {
    expect(fieldItems({ ...subject({}), renames: [] }).map((i) => [i.what, i.action])).toEqual([
      [
        "billing still sends /amount in 12% of its records over the last 7d; mobile still sends /amount in 100% of its records over the last 7d",
        "Stop sending /amount from billing and mobile before removing it in 2.0.0.",
      ],
    ]);
  });
});
