import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../../src/config/schema.js";

// src/config/config-validator.generated.ts is the config schema's validator as ajv generates it, kept
// in the repository so that a start does not compile it (about 85 ms of a 200-subject start-up,
// BENCHMARKS.md). This test generates it again and fails when the file differs: after changing
// src/config/schema.ts, write it anew with
//
//   SCHEMAWATCH_WRITE_GENERATED=1 npx vitest run test/unit/config/config-validator.test.ts

const FILE = fileURLToPath(new URL("../../../src/config/config-validator.generated.ts", import.meta.url));

const HEADER = `// @ts-nocheck
/* eslint-disable */
// Generated from src/config/schema.ts by test/unit/config/config-validator.test.ts (ajv standalone code):
// do not edit. SCHEMAWATCH_WRITE_GENERATED=1 npx vitest run test/unit/config/config-validator.test.ts
// writes it anew.
`;

/** ajv's standalone module of the config schema, as src/config/load.ts once compiled it at every start. */
function generate(): string {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    validateSchema: false,
    code: { source: true, esm: true },
  });
  const standaloneCode = standaloneModule.default;
  const code = standaloneCode(ajv, ajv.compile(configSchema));
  // ajv 8's ESM output still `require`s its runtime helpers (CommonJS): a require made for the module.
  const body = code.replace(/^"use strict";/, "");
  const imports = [
    'import { createRequire } from "node:module";',
    "const require = createRequire(import.meta.url);",
  ];
  return `${HEADER}${imports.join("\n")}\n${body}\n`;
}

describe("the generated config validator", () => {
  it("is what ajv generates from the config schema now", async () => {
    const expected = generate();
    if (process.env.SCHEMAWATCH_WRITE_GENERATED === "1") await writeFile(FILE, expected);
    expect(expected).toMatch(/require\("ajv\/dist\/runtime\/ucs2length"\)/);
    expect(await readFile(FILE, "utf8")).toBe(expected);
  });
});
