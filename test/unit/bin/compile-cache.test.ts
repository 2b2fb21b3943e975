import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// bin/compile-cache.js: V8's compiled code of the CLI's modules kept on disk (NODE_COMPILE_CACHE, else
// the temporary folder). A cache may only ever make a start faster: these starts run the real entry
// point with a cache that is fresh, stale (the module changed after it was cached), corrupt, or in a
// folder that cannot be made, and expect exactly what a start without any cache prints.

const run = promisify(execFile);

async function node(args: string[], env: Record<string, string>, cwd = process.cwd()) {
  // Node's own variables are set only where a test sets them: the runner's environment may carry one.
  const base = { ...process.env };
  delete base["NODE_COMPILE_CACHE"];
  delete base["NODE_DISABLE_COMPILE_CACHE"];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env: { ...base, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const temporary: string[] = [];
afterAll(async () => {
  for (const dir of temporary) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-compile-cache-"));
  temporary.push(dir);
  return dir;
}

/** Every file under `dir`, any depth (Node keeps its entries in a folder per Node.js version and user). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Overwrites every cached entry: the first half with bytes that are no cache, the rest emptied. */
async function corrupt(cache: string): Promise<number> {
  const files = await filesUnder(cache);
  for (const [i, file] of files.entries())
    await writeFile(file, i % 2 === 0 ? Buffer.from("not V8 code cache ".repeat(64 + i)) : "");
  return files.length;
}

// The bundled example replayed to its end: the config, catalog, engine, pipeline, HTTP server and
// report modules all load, and the JSON report is the same on every run of the same capture.
const REPLAY = [
  "bin/schemawatch.js",
  "run",
  "--config",
  "examples/config.yaml",
  "--source",
  "file:examples/traffic/events.ndjson",
  "--exit-at-end",
  "--port",
  "0",
  "--format",
  "json",
];

describe("the compile cache of bin/schemawatch.js", () => {
  it("fills the NODE_COMPILE_CACHE folder, and a corrupt cache there changes nothing a start prints", async () => {
    const cache = join(await tempDir(), "cache");
    const without = await node(REPLAY, { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(without.code).toBe(0);
    expect(JSON.parse(without.stdout)).toHaveProperty("subjects");

    const cold = await node(REPLAY, { NODE_COMPILE_CACHE: cache });
    expect([cold.code, cold.stdout]).toEqual([0, without.stdout]);
    const cached = await filesUnder(cache);
    // the CLI's modules and their dependencies: hundreds of entries, not a handful
    expect(cached.length).toBeGreaterThan(100);

    const warm = await node(REPLAY, { NODE_COMPILE_CACHE: cache });
    expect([warm.code, warm.stdout]).toEqual([0, without.stdout]);

    expect(await corrupt(cache)).toBe(cached.length);
    const broken = await node(REPLAY, { NODE_COMPILE_CACHE: cache });
    expect([broken.code, broken.stdout]).toEqual([0, without.stdout]);
    // the log lines carry times and a port; the cache adds none of its own
    expect(broken.stderr.split("\n").filter((l) => l !== "" && !l.startsWith('{"level":30'))).toEqual([]);
  });

  it("compiles a module again when it changed after it was cached (another build in the same place)", async () => {
    const dir = await tempDir();
    // Without NODE_COMPILE_CACHE (which Node.js itself reads before any module runs) the entry point's
    // own call picks the folder: node-compile-cache in the temporary folder.
    const temp = join(dir, "tmp");
    await mkdir(temp);
    const cache = join(temp, "node-compile-cache");
    await mkdir(join(dir, "bin"));
    await mkdir(join(dir, "dist", "cli"), { recursive: true });
    for (const file of ["schemawatch.js", "require-node.js", "compile-cache.js"])
      await copyFile(join("bin", file), join(dir, "bin", file));
    const main = join(dir, "dist", "cli", "main.js");
    const build = (word: string) =>
      writeFile(
        main,
        `export async function main(args) { process.stdout.write(${JSON.stringify(word)} + " " + args.join(",") + "\\n"); return 3; }\n`,
      );

    await build("first");
    expect(await node(["bin/schemawatch.js", "a", "b"], { TMPDIR: temp }, dir)).toEqual({
      code: 3,
      stdout: "first a,b\n",
      stderr: "",
    });
    expect((await filesUnder(cache)).length).toBeGreaterThan(0);
    const cachedAt = (await stat(main)).mtimeMs;

    // the same length and place, another text: only the content tells them apart
    await build("other");
    expect((await stat(main)).mtimeMs).toBeGreaterThanOrEqual(cachedAt);
    expect(await node(["bin/schemawatch.js", "a", "b"], { TMPDIR: temp }, dir)).toEqual({
      code: 3,
      stdout: "other a,b\n",
      stderr: "",
    });
    await corrupt(cache);
    expect(await node(["bin/schemawatch.js", "c"], { TMPDIR: temp }, dir)).toEqual({
      code: 3,
      stdout: "other c\n",
      stderr: "",
    });
  });

  it("starts without a word when the folder cannot be made (a read-only file system)", async () => {
    const dir = await tempDir();
    // a folder below a regular file cannot be created, whoever runs the test (root included)
    const blocked = join(dir, "a-file");
    await writeFile(blocked, "");
    const envs: Record<string, string>[] = [
      { TMPDIR: blocked },
      { NODE_COMPILE_CACHE: join(blocked, "cache") },
    ];
    for (const env of envs) {
      const result = await node(["bin/schemawatch.js", "--version"], env);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
      expect(result.stderr).toBe("");
    }
  });

  it("is off with NODE_DISABLE_COMPILE_CACHE=1: nothing written", async () => {
    const cache = join(await tempDir(), "cache");
    const result = await node(["bin/schemawatch.js", "--version"], {
      NODE_COMPILE_CACHE: cache,
      NODE_DISABLE_COMPILE_CACHE: "1",
    });
    expect(result.code).toBe(0);
    await expect(stat(cache)).rejects.toThrow(/ENOENT/);
  });
});
