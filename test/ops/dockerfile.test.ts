import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The image cannot be built here (no Docker engine); these checks read the Dockerfile for what the
// deployment relies on: Node.js 24 slim, production dependencies only, a numeric non-root user, a
// HEALTHCHECK on /healthz, and the entry point reading the mounted config.

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

  it("runs as a numeric non-root user with a HEALTHCHECK on /healthz", () => {
    const user = runtime.find((l) => l.startsWith("USER "));
    expect(user).toMatch(/^USER [1-9]\d*(:\d+)?$/);
    const healthcheck = runtime.find((l) => l.startsWith("HEALTHCHECK "));
    expect(healthcheck).toMatch(/CMD \["node", "-e", ".*fetch\('http:\/\/127\.0\.0\.1:9464\/healthz'\)/);
  });

  it("runs `schemawatch run --config /etc/schemawatch/config.yaml` by default", () => {
    expect(runtime).toContain('ENTRYPOINT ["node", "/app/bin/schemawatch.js"]');
    expect(runtime).toContain('CMD ["run", "--config", "/etc/schemawatch/config.yaml"]');
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> };
    expect(pkg.bin["schemawatch"]).toBe("bin/schemawatch.js");
  });
});
