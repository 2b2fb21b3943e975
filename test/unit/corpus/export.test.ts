import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Corpus } from "../../../src/corpus/corpus.js";
import { fileSafe } from "../../../src/corpus/export.js";
import { shapeOf } from "../../../src/pipeline/shape.js";
import { readDocumentFolder } from "../../../src/offline/documents.js";
import { writeTree } from "../../helpers/files.js";

const A = { id: 1, event: "view" };
const B = { id: 2, event: "buy", amount: 12 };
const D = { id: 4, event: "view", x: true };
const KA = "274fb235a7e5";
const KB = "1f5bd3bd1a8a";
const KD = "4785fcba46f8";

function filled(): Corpus {
  const c = new Corpus({ maxShapes: 10, redact: [] });
  c.observe("event", "1.0.0", "web", A, undefined, { conforms: true, at: Date.UTC(2026, 11, 1) });
  c.observe("event", "1.1.0", "mobile", B, undefined, { conforms: true, at: Date.UTC(2026, 11, 2) });
  c.observe("event", "1.1.0", "mobile", B, undefined, { conforms: true, at: Date.UTC(2026, 11, 3) });
  c.observe("event", "1.1.0", "partner/feed 2", D, undefined, { conforms: false, at: Date.UTC(2026, 11, 4) });
  c.observe("event", "none", "legacy-batch", A, undefined, { at: Date.UTC(2026, 11, 5) });
  c.observe("order", "2.0.0", "shop", { n: 1 }, undefined, { conforms: true, at: Date.UTC(2026, 11, 6) });
  return c;
}

async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

async function index(dir: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(dir, "index.ndjson"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("Corpus.exportTo", () => {
  it("writes one folder per subject and writer, exactly the document in each file, the index on top", async () => {
    const out = join(await writeTree({}), "corpus");
    const summary = await filled().exportTo(out);
    const files = [
      `event/1.0.0/1.0.0-web-${KA}.json`,
      `event/1.1.0/1.1.0-mobile-${KB}.json`,
      `event/1.1.0/nonconforming/1.1.0-partner_feed_2-${KD}.json`,
      `event/none/none-legacy-batch-${KA}.json`,
      `order/2.0.0/2.0.0-shop-${shapeOf({ n: 1 }).key}.json`,
    ];
    expect(summary).toEqual({ shapes: 5, subjects: 2, files });
    expect(await tree(out)).toEqual(["index.ndjson", ...files].sort());
    expect(await readFile(join(out, files[1]!), "utf8")).toBe(JSON.stringify(B, null, 2) + "\n");
    const lines = await index(out);
    expect(lines.map((l) => `${l["kind"]} ${l["subject"]} ${l["file"] ?? ""}`)).toEqual([
      "subject event ",
      "subject order ",
      ...files.map((f) => `example ${f.split("/")[0]} ${f}`),
    ]);
    expect(lines[0]).toEqual({ kind: "subject", subject: "event", shapes: 4, dropped: 0, droppedRecords: 0 });
    expect(lines[3]).toEqual({
      kind: "example",
      subject: "event",
      file: files[1],
      writer: "1.1.0",
      producer: "mobile",
      shape: KB,
      conforms: true,
      seen: 2,
      firstSeen: "2026-12-02T00:00:00.000Z",
      lastSeen: "2026-12-03T00:00:00.000Z",
      redacted: [],
      paths: ["/amount:integer", "/event:string", "/id:integer", ":object"],
    });
  });

  it("gives check a folder of documents only: no index, no failing examples", async () => {
    const out = await writeTree({});
    await filled().exportTo(out);
    const documents = await readDocumentFolder(join(out, "event", "1.1.0"));
    expect(documents.map((d) => [d.name, d.json])).toEqual([[`1.1.0-mobile-${KB}.json`, B]]);
  });

  it("exports one subject when asked, and names the subjects it has when asked for another", async () => {
    const out = await writeTree({});
    const summary = await filled().exportTo(out, { subject: "order" });
    expect(summary.shapes).toBe(1);
    expect((await tree(out)).filter((f) => f.startsWith("event/"))).toEqual([]);
    await expect(filled().exportTo(out, { subject: "user" })).rejects.toThrow(
      "the corpus has no examples of subject 'user' (it has: event, order)",
    );
  });

  it("keeps the files of an earlier export and merges the index", async () => {
    const out = await writeTree({});
    await filled().exportTo(out);
    await rm(join(out, `event/none/none-legacy-batch-${KA}.json`));
    const later = new Corpus({ maxShapes: 10, redact: [] });
    later.observe("event", "1.1.0", "mobile", B, undefined, { conforms: true, at: 0 });
    later.observe("event", "1.2.0", "mobile", A, undefined, { conforms: true, at: 0 });
    await writeFile(join(out, "notes.txt"), "mine");
    const summary = await later.exportTo(out);
    expect(summary.shapes).toBe(2);
    const lines = await index(out);
    expect(lines.filter((l) => l["kind"] === "example").map((l) => [l["file"], l["seen"]])).toEqual([
      [`event/1.0.0/1.0.0-web-${KA}.json`, 1],
      [`event/1.1.0/1.1.0-mobile-${KB}.json`, 1],
      [`event/1.1.0/nonconforming/1.1.0-partner_feed_2-${KD}.json`, 1],
      [`event/1.2.0/1.2.0-mobile-${KA}.json`, 1],
      [`order/2.0.0/2.0.0-shop-${shapeOf({ n: 1 }).key}.json`, 1],
    ]);
    expect(lines.filter((l) => l["kind"] === "subject").map((l) => [l["subject"], l["shapes"]])).toEqual([
      ["event", 2],
      ["order", 1],
    ]);
    expect(await readFile(join(out, "notes.txt"), "utf8")).toBe("mine");
  });

  it("refuses an index it did not write", async () => {
    const out = await writeTree({ "index.ndjson": "hello\n" });
    await expect(filled().exportTo(out)).rejects.toThrow(
      `${join(out, "index.ndjson")}:1: not an index line of an earlier export; move the file away or fix it`,
    );
  });

  it("makes producer names safe as parts of file names", () => {
    expect(fileSafe("team/a b")).toBe("team_a_b");
    expect(fileSafe("../x")).toBe(".._x");
    expect(fileSafe("")).toBe("_");
  });
});
