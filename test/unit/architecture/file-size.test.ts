import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// STYLE.md, rule 1: a file does one thing you can name. Past 350 lines a file in src/ says at its
// top why it stays whole, in a line that begins with REASON; any other long file is to be split.
const LIMIT = 350;
const REASON = "// Over 350 lines";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the size of src/'s files", () => {
  it(`has no file over ${LIMIT} lines without a reason at its top`, () => {
    const unexplained = sources("src").filter((file) => {
      const text = readFileSync(file, "utf8");
      return text.split("\n").length - 1 > LIMIT && !text.startsWith(REASON);
    });
    expect(unexplained).toEqual([]);
  });
});
