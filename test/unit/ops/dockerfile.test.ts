import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// These checks read the Dockerfile for what the deployment relies on: Node.js 24 slim, production
// dependencies only, a numeric non-root user, a HEALTHCHECK that finds the monitor's port, and the
// entry point reading the mounted config. The built image itself is test/integration/e2e/image.test.ts.

const dockerfile = readFileSync("Dockerfile", "utf8");
// continuation lines joined, comments dropped: one instruction per entry
const instructions = dockerfile
  .replace(/\\\n\s*/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const stages = instructions.filter((line) => line.startsWith("FROM "));
const runtime = instructions.slice(instructions.lastIndexOf(stages.at(-1) ?? ""));

describe("Dockerfile", () => {
  it("is multi-stage on node:24-slim", () => {
    expect(instructions).toContain("ARG NODE_IMAGE=node:24-slim");
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const from of stages) expect(from).toMatch(/^FROM \$\{NODE_IMAGE\}/);
  });

  it("builds dist/ with every dependency and ships production dependencies only", () => {
    expect(instructions.some((l) => /^RUN npm ci\b(?!.*--omit=dev)/.test(l))).toBe(true);
    expect(instructions).toContain("RUN npm run build");
    expect(instructions.some((l) => /^RUN npm ci .*--omit=dev/.test(l))).toBe(true);
    const copiedNodeModules = runtime.find((l) => l.includes("/app/node_modules"));
    const deps = stages.find((s) => s.includes(" AS deps"));
    expect(deps, "a stage named deps").toBeDefined();
    expect(copiedNodeModules).toMatch(/^COPY --from=deps /);
  });

  it("copies only paths that exist and that .dockerignore lets through", () => {
    const ignored = readFileSync(".dockerignore", "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"));
    for (const line of instructions.filter((l) => l.startsWith("COPY ") && !l.includes("--from="))) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const source of sources) {
        expect(existsSync(source), line).toBe(true);
        expect(ignored, `${source} is in .dockerignore`).not.toContain(source);
      }
    }
  });

  it("runs as a numeric non-root user with a HEALTHCHECK that asks the monitor where it listens", () => {
    const user = runtime.find((l) => l.startsWith("USER "));
    expect(user).toMatch(/^USER [1-9]\d*(:\d+)?$/);
    const healthcheck = runtime.find((l) => l.startsWith("HEALTHCHECK "));
    // no port written in: bin/healthcheck.js reads it from the monitor's flags and config
    expect(healthcheck).toMatch(/ CMD \["node", "\/app\/bin\/healthcheck\.js"\]$/);
    expect(healthcheck).not.toMatch(/9464/);
    expect(existsSync("bin/healthcheck.js")).toBe(true);
  });

  it("passes npm's cache and offline settings through to `npm ci` and cleans no cache", () => {
    // scripts/image.sh mounts the machine's npm cache for an offline install; a `npm cache clean`
    // would empty it.
    for (const stage of stages) {
      const at = instructions.indexOf(stage);
      const next = instructions.findIndex((l, i) => i > at && l.startsWith("FROM "));
      const body = instructions.slice(at, next === -1 ? undefined : next);
      if (!body.some((l) => l.startsWith("RUN npm ci"))) continue;
      expect(body, stage).toContain("ARG npm_config_cache");
      expect(body, stage).toContain("ARG npm_config_offline");
    }
    expect(dockerfile).not.toMatch(/npm cache clean/);
  });

  it("warms the compile cache as the image's user, in the folder NODE_COMPILE_CACHE names at run time", () => {
    // Node.js keeps a folder per user id inside it: warmed by another user, the image's starts would
    // find none, and could not make one on a read-only root file system.
    const user = runtime.findIndex((l) => l.startsWith("USER "));
    const env = runtime.findIndex((l) => l === "ENV NODE_COMPILE_CACHE=/app/compile-cache");
    const warm = runtime.findIndex((l) => /^RUN node bin\/schemawatch\.js run .*--exit-at-end/.test(l));
    expect([user >= 0, env > user, warm > env]).toEqual([true, true, true]);
    expect(runtime.some((l) => /^RUN .*chown 1000:1000 .*\/app\/compile-cache/.test(l))).toBe(true);
    // what the warm-up replays is in the image, and its config keeps no state (nothing else written)
    for (const path of ["examples/config.yaml", "examples/traffic/events.ndjson"]) {
      expect(existsSync(path), path).toBe(true);
      expect(runtime[warm]).toContain(path);
    }
    expect(readFileSync("examples/config.yaml", "utf8")).not.toMatch(/^state:/m);
  });

  it("runs `schemawatch run --config /etc/schemawatch/config.yaml` by default", () => {
    expect(runtime).toContain('ENTRYPOINT ["node", "/app/bin/schemawatch.js"]');
    expect(runtime).toContain('CMD ["run", "--config", "/etc/schemawatch/config.yaml"]');
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> };
    expect(pkg.bin["schemawatch"]).toBe("bin/schemawatch.js");
  });
});
