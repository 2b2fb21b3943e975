// `--out` files are written whole or not at all (src/cli/write-whole.ts): a temporary file beside the
// target, renamed over it, so a signal mid-write leaves no partial file where `--out` pointed.
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { writeWhole } from "../../../src/cli/write-whole.js";

it("replaces the target with the whole text and leaves nothing beside it", async () => {
  const dir = await mkdtemp(join(tmpdir(), "write-whole-"));
  const target = join(dir, "report.md");
  await writeFile(target, "old report");
  await writeWhole(target, "new report\n");
  expect(await readFile(target, "utf8")).toBe("new report\n");
  expect(await readdir(dir)).toEqual(["report.md"]);
});

it("leaves no temporary file when the target cannot be written", async () => {
  const dir = await mkdtemp(join(tmpdir(), "write-whole-"));
  // The target is a folder: the rename fails after the temporary file was written.
  await writeFile(join(dir, "keep"), "");
  await expect(writeWhole(dir, "text")).rejects.toThrow();
  expect(await readdir(dir)).toEqual(["keep"]);
});

it("names the target, not the temporary file, when it cannot be written", async () => {
  await expect(writeWhole("/nonexistent/dir/report.txt", "text")).rejects.toThrow(
    "ENOENT: no such file or directory, open '/nonexistent/dir/report.txt'",
  );
});
