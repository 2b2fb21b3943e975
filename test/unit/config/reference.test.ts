import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../../src/config/schema.js";

/** Every key path of the config schema, as docs/configuration.md writes it (`subjects[].versions.V.file`). */
function keyPaths(schema: Record<string, unknown>, prefix: string): string[] {
  const paths: string[] = [];
  const properties = schema["properties"] as Record<string, Record<string, unknown>> | undefined;
  for (const [key, child] of Object.entries(properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    paths.push(path);
    if (child["type"] === "array" && typeof child["items"] === "object") {
      paths.push(...keyPaths(child["items"] as Record<string, unknown>, `${path}[]`));
    } else if (typeof child["additionalProperties"] === "object") {
      paths.push(...keyPaths(child["additionalProperties"] as Record<string, unknown>, `${path}.V`));
    } else {
      paths.push(...keyPaths(child, path));
    }
  }
  return paths;
}

describe("docs/configuration.md", () => {
  it("documents every key of the config schema", () => {
    const doc = readFileSync("docs/configuration.md", "utf8");
    const documented = new Set([...doc.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
    const leaves = keyPaths(configSchema as unknown as Record<string, unknown>, "").filter(
      (path) =>
        ![
          "kafka",
          "kafka.tls",
          "kafka.sasl",
          "http",
          "metrics",
          "state",
          "shutdown",
          "corpus",
          "stats",
          "subjects",
          "subjects[].writer",
          "subjects[].writer.wire",
          "subjects[].producer",
          "subjects[].sampling",
          "registries",
          "registries.V.auth",
          "registries.V.tls",
          "subjects[].registry",
          "subjects[].registry.versions.V",
        ].includes(path),
    );
    const missing = leaves.filter((path) => !documented.has(path));
    expect(missing).toEqual([]);
  });
});

describe("config examples in the docs", () => {
  it("parse as configs (README.md, docs/registry.md, docs/configuration.md)", async () => {
    const { parseConfig } = await import("../../../src/config/load.js");
    const examples = ["README.md", "docs/registry.md", "docs/configuration.md"].flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)]
        .map((m) => ({ file, yaml: m[1]! }))
        .filter((e) => /^subjects:/m.test(e.yaml)),
    );
    expect(examples.map((e) => e.file)).toEqual([
      "README.md",
      "docs/registry.md",
      "docs/registry.md",
      "docs/registry.md",
      "docs/configuration.md",
    ]);
    for (const example of examples) {
      expect(() => parseConfig(example.yaml, `/example/${example.file}.yaml`), example.file).not.toThrow();
    }
  });
});
