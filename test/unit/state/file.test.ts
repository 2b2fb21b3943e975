import { describe, expect, it } from "vitest";
import { StateFile, loadState, saveState } from "../../../src/state/file.js";
import { writeTree } from "../../helpers/files.js";

// What the state file accepts when it reads a state back: anything else is STATE_INVALID, which the
// runtime reports and treats as a coverage gap.

const T0 = Date.parse("2026-12-01T08:00:00Z");

describe("the state file's check of what it reads", () => {
  const valid = {
    format: 1,
    savedAt: T0,
    startedAt: T0,
    partitions: [{ topic: "events", partition: 0, coveredSince: T0, lastOffset: "4", observedUntil: T0 }],
    versions: {
      event: {
        "1.0.0": { lastDeclaredAt: T0, lastDeclaredBy: null, undeclaredDependents: 0, lastUndeclaredAt: 0 },
      },
    },
    candidates: { event: {} },
    unreadable: { event: [] },
    retiredSince: { event: { "1.0.0": T0 } },
  };

  it("reads a valid state back as written, with or without unreadable records and retirement dates", async () => {
    const dir = await writeTree({});
    await saveState(`${dir}/s.json`, valid as never);
    expect(await loadState(`${dir}/s.json`)).toEqual(valid);
    const { unreadable: _, retiredSince: __, ...older } = valid;
    await saveState(`${dir}/s.json`, older as never);
    expect(await loadState(`${dir}/s.json`)).toEqual(older);
  });

  it.each([
    ["null", null],
    ["an array", []],
    ["another format", { ...valid, format: 2 }],
    ["no start", { ...valid, startedAt: "yesterday" }],
    ["partitions not a list", { ...valid, partitions: {} }],
    ["a bad partition among good ones", { ...valid, partitions: [...valid.partitions, { topic: "events" }] }],
    ["versions not an object", { ...valid, versions: null }],
    ["a subject's versions not an object", { ...valid, versions: { event: null } }],
    ["a subject's versions a string", { ...valid, versions: { event: "1.0.0" } }],
    [
      "a bad version among good ones",
      { ...valid, versions: { event: { ...valid.versions.event, "2.0.0": {} } } },
    ],
    ["candidates missing", { ...valid, candidates: undefined }],
    ["unreadable null", { ...valid, unreadable: null }],
    ["unreadable a string", { ...valid, unreadable: "none" }],
    ["unreadable entries not a list", { ...valid, unreadable: { event: {} } }],
    ["a retirement date that is no number", { ...valid, retiredSince: { event: { "1.0.0": "monday" } } }],
    ["a retirement date that is null", { ...valid, retiredSince: { event: { "1.0.0": null } } }],
    ["retirement dates not an object", { ...valid, retiredSince: "never" }],
  ])("rejects a state with %s as of an unknown format", async (_name, state) => {
    const dir = await writeTree({ "s.json": JSON.stringify(state) });
    await expect(loadState(`${dir}/s.json`)).rejects.toMatchObject({
      code: "STATE_INVALID",
      message: `${dir}/s.json: state has an unknown format`,
    });
  });

  it("a file that cannot be read (a folder) is STATE_INVALID with its cause", async () => {
    const dir = await writeTree({ "s.json/inside": "" });
    await expect(loadState(`${dir}/s.json`)).rejects.toMatchObject({
      code: "STATE_INVALID",
      message: expect.stringMatching(new RegExp(`^${dir}/s.json: cannot read state: `)) as unknown,
      cause: expect.objectContaining({ code: "EISDIR" }) as unknown,
    });
  });

  it("a file that is not JSON is STATE_INVALID with the parser's error as its cause", async () => {
    const dir = await writeTree({ "s.json": "{" });
    await expect(loadState(`${dir}/s.json`)).rejects.toMatchObject({
      code: "STATE_INVALID",
      cause: expect.any(SyntaxError) as unknown,
    });
  });

  it("keeps the renames section beside the others: written, read back as it was, and absent when not written", async () => {
    const dir = await writeTree({});
    const file = new StateFile(`${dir}/s.json`);
    const renames = [
      {
        subject: "pay",
        field: "/amount",
        replacement: "/total",
        rows: [
          { producer: "billing", writer: "1.1.0", records: [4, 2, 0, 0, 0], lastAt: [T0, T0 + 1, 0, 0, 0] },
        ],
      },
    ];
    const { format: _, savedAt: __, ...lifecycle } = valid;
    await file.write({ lifecycle: valid as never, stats: { buckets: [] }, renames });
    const read = await file.read();
    expect(read.sections?.renames).toEqual(renames);
    expect(read.sections?.stats).toEqual({ buckets: [] });
    expect(read.sections?.lifecycle).toEqual(expect.objectContaining(lifecycle));
    expect(Object.keys(read.sections!.lifecycle)).not.toContain("renames");
    await file.write({ lifecycle: valid as never });
    expect((await file.read()).sections?.renames).toBeUndefined();
  });
});
