// The prune command's input checks, which need neither a registry nor a monitor (exit 2), and a
// registry that does not answer (exit 3), which needs none either: the config's URL is a closed port.
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

const CONFIG = `registries:
  main: { url: "http://127.0.0.1:9/apis/ccompat/v7" }
subjects:
  - name: order
    topics: [orders]
    registry: { name: main }
`;

async function config(): Promise<string> {
  const dir = await writeTree({ "config.yaml": CONFIG });
  return join(dir, "config.yaml");
}

describe("schemawatch prune", () => {
  it("prints its help, listed in the command list", async () => {
    const help = await runCli(["prune", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /^Usage: schemawatch prune --config FILE --registry NAME --subject S --version N\n/,
    );
    expect(help.stdout).toContain("never ?permanent=true");
    expect(help.stdout).toContain(
      "; 2 bad input (a config that\ndoes not load, an unknown registry, subject or version); 3 the registry or the monitor failed (no\nanswer, an error status)",
    );
    expect((await runCli(["--help"])).stdout).toMatch(/\n {2}prune +retire a drained deprecated version/);
  });

  it("exits 2 naming what is missing or wrong", async () => {
    const file = await config();
    const missing = await runCli([
      "prune",
      "--config",
      file,
      "--registry",
      "main",
      "--subject",
      "orders-value",
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "schemawatch prune: --version N is required: the registry's version number",
    );
    const notNumber = await runCli([
      "prune",
      "--config",
      file,
      "--registry",
      "main",
      "--subject",
      "x",
      "--version",
      "1.0",
    ]);
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toContain("--version N is required");
  });

  it("exits 2 for a registry the config does not define, or a subject it does not follow", async () => {
    const file = await config();
    const registry = await runCli([
      "prune",
      "--config",
      file,
      "--registry",
      "other",
      "--subject",
      "orders-value",
      "--version",
      "1",
    ]);
    expect(registry.code).toBe(2);
    expect(registry.stderr).toContain(
      "schemawatch prune: no registry 'other' in the config's registries (known: main)",
    );
    const subject = await runCli([
      "prune",
      "--config",
      file,
      "--registry",
      "main",
      "--subject",
      "payments-value",
      "--version",
      "1",
    ]);
    expect(subject.code).toBe(2);
    expect(subject.stderr).toContain(
      "no subject of the config follows 'payments-value' of registry 'main' (followed: orders-value)",
    );
  });

  it("exits 3, apart from bad input, when the registry does not answer, and says nothing changed", async () => {
    const file = await config();
    const result = await runCli([
      "prune",
      "--config",
      file,
      "--registry",
      "main",
      "--subject",
      "orders-value",
      "--version",
      "1",
    ]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^schemawatch prune: the registry failed: registry 'main' \(http:\/\/127\.0\.0\.1:9\/apis\/ccompat\/v7\): GET \/subjects\/orders-value\/versions[^\n]*; nothing was changed\n$/,
    );
  });
});
