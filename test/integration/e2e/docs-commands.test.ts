// Every ```sh block of README.md and docs/*.md is run as a reader would paste it: in a copy of the
// repository, with Node.js 24 first on PATH, one bash script per block (`set -e -o pipefail`). A block
// that needs something this machine does not give a test (a broker, a registry, a container engine, a
// cluster, a running monitor, the whole suite) says so in a comment line `# needs: WHAT[, WHAT]`, and
// a block whose last command exits non-zero on purpose says `# exit: N`; docs/testing.md ("The
// commands in the docs") has the convention. It needs dist/ (npm test builds it first).
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** What a block may declare it needs, and why that keeps it from running here. */
const NEEDS: Readonly<Record<string, string>> = {
  kafka: "a Kafka broker, or Java and Maven to start one (scripts/kafka-broker.sh)",
  registry: "a schema registry, or Java 21 to start one (scripts/registry.sh)",
  docker: "a container engine (Docker Compose, Podman or buildah)",
  image:
    "schemawatch's image, built by scripts/image.sh build (CI builds it and sets SCHEMAWATCH_IMAGE: then these run)",
  kubernetes: "a Kubernetes cluster",
  monitor: "a running schemawatch at the address the command names",
  suite: "runs the project's whole test suite, which is where this test runs",
};
/** How long one block may take on a loaded 2-core machine (npm install with its build is the longest). */
const BLOCK_TIMEOUT_MS = 110_000;
const SUBCOMMAND = "run|report|readiness|check|matrix|diff|corpus|registry|prune|demo-produce|help";

interface Block {
  readonly file: string;
  readonly line: number;
  readonly script: string;
  readonly needs: readonly string[];
  readonly exit: number;
}

function shBlocks(file: string): Block[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== "```sh") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]?.trim() !== "```") end++;
    const body = lines.slice(start, end);
    const needs = body.flatMap((l) => /^# needs: (.+)$/.exec(l)?.[1]?.split(/,\s*/) ?? []);
    const exit = body.map((l) => /^# exit: (\d+)\b/.exec(l)?.[1]).find((n) => n !== undefined);
    blocks.push({ file, line: start, script: body.join("\n"), needs, exit: Number(exit ?? 0) });
    i = end;
  }
  return blocks;
}

const FILES = [
  "README.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const BLOCKS = FILES.flatMap(shBlocks);
/** What this run has of NEEDS: the image where CI built one (`SCHEMAWATCH_IMAGE`). */
const GIVEN: ReadonlySet<string> = new Set(process.env["SCHEMAWATCH_IMAGE"] ? ["image"] : []);
const RUNNABLE = BLOCKS.filter((b) => b.needs.every((need) => GIVEN.has(need)));
const name = (b: Block) => `${b.file}:${b.line} ${b.script.split("\n").find((l) => !l.startsWith("#"))}`;

/**
 * A copy of the repository as git sees it (tracked and new files), with dist/ and node_modules.
 * node_modules is hard-linked where it can be, not copied (222 MB); the files npm and vitest rewrite in place
 * (node_modules/.package-lock.json, their caches) are copied or left out, so that nothing a block does
 * reaches the original.
 */
function copyRepository(): string {
  if (!existsSync("dist/cli/main.js")) throw new Error("dist/ is missing: run `npm run build` first");
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    encoding: "utf8",
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr || listed.error?.message}`);
  const root = mkdtempSync(join(tmpdir(), "schemawatch-docs-"));
  for (const file of listed.stdout.split("\0").filter((f) => f !== "" && existsSync(f))) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    cpSync(file, join(root, file), { verbatimSymlinks: true });
  }
  cpSync("dist", join(root, "dist"), { recursive: true });
  mkdirSync(join(root, "node_modules"));
  const entries = readdirSync("node_modules").filter((e) => !e.startsWith(".") || e === ".bin");
  const sources = entries.map((e) => join("node_modules", e));
  const target = join(root, "node_modules");
  // hard links cannot cross file systems (a tmpfs /tmp): then a plain copy, slower but the same
  const linked = spawnSync("cp", ["-al", ...sources, target], { encoding: "utf8" });
  if (linked.status !== 0) {
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target);
    const copied = spawnSync("cp", ["-a", ...sources, target], { encoding: "utf8" });
    if (copied.status !== 0) {
      throw new Error(
        `copying node_modules failed: ${linked.stderr}\n${copied.stderr || copied.error?.message}`,
      );
    }
  }
  const lock = join(root, "node_modules", ".package-lock.json");
  if (existsSync("node_modules/.package-lock.json")) copyFileSync("node_modules/.package-lock.json", lock);
  return root;
}

/** The environment of a reader's shell: Node.js 24 first on PATH, nothing of npm's or vitest's own. */
function readerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|TEST$)/.test(key)) continue;
    env[key] = value;
  }
  env["PATH"] = [dirname(process.execPath), process.env["PATH"] ?? ""].join(delimiter);
  // use what npm already has in its cache; the registry only for what it lacks
  env["npm_config_prefer_offline"] = "true";
  env["npm_config_audit"] = "false";
  env["npm_config_fund"] = "false";
  env["npm_config_update_notifier"] = "false";
  return env;
}

interface Ran {
  readonly code: number | null;
  readonly output: string;
  readonly timedOut: boolean;
}

function runBlock(block: Block, cwd: string): Promise<Ran> {
  const child = spawn("bash", ["-c", `set -e -o pipefail\n${block.script}`], {
    cwd,
    env: readerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // the whole process group: npx, node and whatever the block started
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  }, BLOCK_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    }),
  );
}

let repo = "";
beforeAll(() => {
  repo = copyRepository();
});
afterAll(() => {
  if (repo !== "") rmSync(repo, { recursive: true, force: true });
});

describe("the sh blocks of README.md and docs/*.md", () => {
  it("are found, and mark only needs this test knows", () => {
    expect(FILES).toContain("docs/testing.md");
    expect(RUNNABLE.length).toBeGreaterThanOrEqual(10);
    for (const block of BLOCKS) {
      for (const need of block.needs)
        expect(Object.keys(NEEDS), `${name(block)}: needs ${need}`).toContain(need);
    }
  });

  it("spell the command `npx schemawatch`, as the README sets it up", () => {
    const bare = new RegExp(`(^|[\\s;&|(])(?<!npx )schemawatch (${SUBCOMMAND}|--)`, "m");
    for (const block of BLOCKS) expect(block.script, name(block)).not.toMatch(bare);
    // commands in running text too: `schemawatch check --old-docs` would exit 127 when pasted
    for (const file of FILES) {
      const inline = readFileSync(file, "utf8").match(
        new RegExp(`\`schemawatch (${SUBCOMMAND})[^\`]* --`, "g"),
      );
      expect(inline ?? [], file).toEqual([]);
    }
  });

  it.each(RUNNABLE.map((b) => [name(b), b] as const))(
    "%s",
    async (_, block) => {
      const ran = await runBlock(block, repo);
      const tail = ran.output.slice(-3000);
      expect(ran.timedOut, `still running after ${BLOCK_TIMEOUT_MS / 1000} s:\n${tail}`).toBe(false);
      expect(ran.code, `a command was not found:\n${tail}`).not.toBe(127);
      expect(ran.output).not.toMatch(/command not found/);
      expect(ran.code, tail).toBe(block.exit);
    },
    BLOCK_TIMEOUT_MS + 10_000,
  );
});
