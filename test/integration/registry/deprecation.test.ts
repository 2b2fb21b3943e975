// Deprecation read from the registry (SCHEMA_REGISTRY_URL, Apicurio): a version's state set through
// Apicurio's native API is its status in a command's catalog, unless the YAML names the version.
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { loadConfig } from "../../../src/config/load.js";
import { readCatalog } from "../../../src/registry/read-catalog.js";
import { writeTree } from "../../helpers/files.js";
import { freshSubject, register, registryUrl, setState } from "../../helpers/registry.js";

const url = registryUrl();

async function statuses(subject: string, versions = ""): Promise<string[][]> {
  const dir = await writeTree({
    "config.yaml": `registries:
  main: { url: "${url}" }
subjects:
  - name: order
    topics: [orders]
    registry:
      name: main
      subject: ${subject}
${versions}`,
  });
  const built = await readCatalog(await loadConfig(join(dir, "config.yaml")), {});
  return built.catalog.subjects.get("order")!.versions.map((v) => [v.version.text, v.status]);
}

describe("deprecation from the registry", () => {
  it("takes DEPRECATED as deprecated and DISABLED as retired; a version the YAML names keeps the YAML's status", async () => {
    const subject = freshSubject("deprecation");
    for (const field of ["a", "b", "c"]) {
      await register(url, subject, { title: subject, type: "object", properties: { [field]: {} } });
    }
    expect(await statuses(subject)).toEqual([
      ["1", "active"],
      ["2", "active"],
      ["3", "active"],
    ]);
    await setState(url, subject, 1, "DISABLED");
    await setState(url, subject, 2, "DEPRECATED");
    expect(await statuses(subject)).toEqual([
      ["1", "retired"],
      ["2", "deprecated"],
      ["3", "active"],
    ]);
    const yaml = `      versions:\n        "2": { status: active }\n        "3": { status: deprecated }\n`;
    expect(await statuses(subject, yaml)).toEqual([
      ["1", "retired"],
      ["2", "active"],
      ["3", "deprecated"],
    ]);
  });
});
