import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/load.js";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

/** The "billion laughs": nine anchors, each nine aliases of the one before, 9^9 strings in all. */
const BILLION_LAUGHS = [
  `a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]`,
  ...["b", "c", "d", "e", "f", "g", "h", "i"].map(
    (name, i) => `${name}: &${name} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(", ")}]`,
  ),
  "subjects: *i",
  "",
].join("\n");

const SUBJECT = `subjects:
  - name: event
    topics: [events]
    schemas: ./schemas
`;

/** Runs `schemawatch run` on a config with this text, as a user would. */
async function runWith(text: string): Promise<{ code: number; stderr: string; path: string }> {
  const dir = await writeTree({ "config.yaml": text });
  const path = `${dir}/config.yaml`;
  const result = await runCli([
    "run",
    "--config",
    path,
    "--source",
    "file:examples/traffic/events.ndjson",
    "--exit-at-end",
  ]);
  return { code: result.code, stderr: result.stderr, path };
}

describe("a config that would exhaust the YAML reader", () => {
  it("an alias bomb is refused with the line where it goes past the bound, no stack trace", async () => {
    const { code, stderr, path } = await runWith(BILLION_LAUGHS);
    expect(code).toBe(2);
    // The YAML library's count: e is 6 561 (9 uses of d, 729 each), so f's second *e passes 10 000.
    expect(stderr).toBe(
      `schemawatch run: ${path}:6: the aliases up to here repeat what their anchors name more than 10000 times: refused as an alias bomb\n`,
    );
  });

  it("10 000 levels of [ are refused at the line they start, no stack trace", async () => {
    const { code, stderr, path } = await runWith(
      `kafka:\n  groupId: g\nsubjects: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`,
    );
    expect(code).toBe(2);
    expect(stderr).toBe(
      `schemawatch run: ${path}:3: nested more than 64 levels deep: refused (a config nests a few)\n`,
    );
  });

  it("block collections nested too deep are refused at the first line past the bound", async () => {
    const text = `subjects:\n${Array.from({ length: 2_000 }, (_, i) => `${"  ".repeat(i + 1)}a:`).join("\n")}\n`;
    expect(() => parseConfig(text, "config.yaml")).toThrow(
      "config.yaml:65: nested more than 64 levels deep: refused (a config nests a few)",
    );
  });

  it("a quoted [ is text, not nesting", () => {
    const text = SUBJECT.replace("[events]", `["${"[".repeat(100)}"]`);
    expect(parseConfig(text, "config.yaml").subjects[0]!.topics).toEqual(["[".repeat(100)]);
  });

  it("an alias without an anchor before it, or inside its own anchor, is named with its line", () => {
    expect(() => parseConfig(`${SUBJECT}    producer: *p\n`, "config.yaml")).toThrow(
      "config.yaml:5: alias *p has no anchor &p before it",
    );
    expect(() => parseConfig("subjects: &s\n  - name: e\n    topics: *s\n", "config.yaml")).toThrow(
      "config.yaml:3: alias *s is inside the node its anchor &s names: it would repeat itself forever",
    );
  });

  it("a wide anchor repeated by many aliases is refused where its expansion passes the bound", () => {
    // Within the YAML library's count (it counts each *s once, whatever s holds): 600 subjects of
    // 2 001 topics each stand for more than a million values once expanded.
    const topics = Array.from({ length: 2_000 }, (_, i) => `t${i}`).join(", ");
    const text = `t: &t [${topics}]\ns: &s { name: e, topics: *t, schemas: ./s }\nsubjects: [${Array(600).fill("*s").join(", ")}]\n`;
    expect(() => parseConfig(text, "config.yaml")).toThrow(
      "config.yaml:3: subjects: stands for more than 1000000 values once its aliases are expanded: refused as an alias bomb",
    );
  });

  it("an anchor used by many subjects is fine (the YAML library alone refuses past 100 uses)", () => {
    const subjects = Array.from(
      { length: 150 },
      (_, i) =>
        `  - name: s${i}\n    topics: [t${i}]\n    schemas: ./schemas\n    producer: ${i === 0 ? "&p { header: producer-id }" : "*p"}\n`,
    );
    const config = parseConfig(`subjects:\n${subjects.join("")}`, "config.yaml");
    expect(config.subjects).toHaveLength(150);
    expect(config.subjects[149]!.producer).toEqual({ header: "producer-id", maxValues: 50 });
  });
});

describe("shutdown.deadline", () => {
  it("is 20 s unless set, in milliseconds", () => {
    expect(parseConfig(SUBJECT, "config.yaml").shutdown).toEqual({ deadline: 20_000 });
    expect(parseConfig(`shutdown:\n  deadline: 5s\n${SUBJECT}`, "config.yaml").shutdown).toEqual({
      deadline: 5_000,
    });
  });

  it("is at least 2 s", () => {
    expect(() => parseConfig(`shutdown:\n  deadline: 1500ms\n${SUBJECT}`, "config.yaml")).toThrow(
      "config.yaml:2: shutdown.deadline: must be at least 2s (the stop needs time to save the state)",
    );
  });
});
