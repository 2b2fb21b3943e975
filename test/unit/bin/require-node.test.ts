import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

// The Node.js this test runs on is 24; the old one is faked before any module of the entry point loads.
const FAKE_NODE_20 = `--import=data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})`;
const LINE =
  "schemawatch needs Node.js 24 or newer; this is 20.20.2. Install it with . scripts/node24.sh (puts Node.js 24 on PATH in this shell), then run the command again.\n";

async function node(args: string[], cwd = process.cwd()) {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd });
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

describe("the Node.js version check", () => {
  it("stops the CLI with one line on Node.js 20, exit 2", async () => {
    const result = await node([FAKE_NODE_20, "bin/schemawatch.js", "--version"]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: LINE });
  });

  it("runs before the CLI's own modules load: a copy of bin/ without dist/ still says only that", async () => {
    const dir = await mkdtemp(join(tmpdir(), "schemawatch-bin-"));
    temporary.push(dir);
    await copyFile("bin/schemawatch.js", join(dir, "schemawatch.js"));
    await copyFile("bin/require-node.js", join(dir, "require-node.js"));
    await copyFile("bin/compile-cache.js", join(dir, "compile-cache.js"));
    const result = await node([FAKE_NODE_20, join(dir, "schemawatch.js"), "run"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "schemawatch needs Node.js 24 or newer; this is 20.20.2. Install it with your version manager (nvm install 24) or from https://nodejs.org/.\n",
    );
  });

  it("is the first step of npm test and npm run bench, and exits 1 with the line", async () => {
    const scripts = JSON.parse(await readFile("package.json", "utf8")).scripts as Record<string, string>;
    for (const name of ["pretest", "pretest:unit", "pretest:integration", "prebench"])
      expect([name, scripts[name]]).toEqual([name, "node bin/require-node.js"]);
    expect(await node([FAKE_NODE_20, "bin/require-node.js"])).toEqual({ code: 1, stdout: "", stderr: LINE });
  });

  it("says nothing and lets the command run on Node.js 24", async () => {
    expect(await node(["bin/require-node.js"])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect((await node(["bin/schemawatch.js", "--version"])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("tells a user who ran scripts/node24.sh instead of sourcing it what to type", async () => {
    const result = await run("bash", ["scripts/node24.sh"]).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(result).toEqual({
      code: 2,
      stderr:
        "schemawatch: scripts/node24.sh must be sourced, not run: type '. scripts/node24.sh' (with the dot) in your shell, then your command (e.g. '. scripts/node24.sh && npm test')\n",
    });
  });
});
