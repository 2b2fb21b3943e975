import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const S = "examples/article/schemas";
const D = "examples/article/docs/matrix";
const ARTICLE_ARGS = [
  "--schema",
  `${S}/v1.json`,
  `${S}/v2-optional-amount.json`,
  `${S}/v2-required-amount.json`,
  `${S}/v2-enum-buy.json`,
  `${S}/v2-open.json`,
  "--doc",
  `${D}/old-doc.json`,
  `${D}/with-amount.json`,
  `${D}/with-event-buy.json`,
  `${D}/with-unknown-key.json`,
];

describe("schemawatch matrix", () => {
  it("reproduces the article's five-by-four table exactly", async () => {
    const result = await runCli(["matrix", ...ARTICLE_ARGS, "--format", "json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      schemas: [
        "v1 (closed, additionalProperties: false)",
        "v2, adds optional amount",
        "v2, adds required amount",
        "v2, adds enum value buy",
        "v2, drops additionalProperties: false",
      ],
      documents: ["old-doc", "with-amount", "with-event-buy", "with-unknown-key"],
      valid: [
        [true, false, false, false],
        [true, true, false, false],
        [false, true, false, false],
        [true, false, true, false],
        [true, true, false, true],
      ],
    });
  });

  it("prints the table as aligned text", async () => {
    const result = await runCli(["matrix", ...ARTICLE_ARGS]);
    expect(result.stdout).toBe(
      [
        "Schema                                    old-doc  with-amount  with-event-buy  with-unknown-key",
        "v1 (closed, additionalProperties: false)  ok       FAIL         FAIL            FAIL",
        "v2, adds optional amount                  ok       ok           FAIL            FAIL",
        "v2, adds required amount                  FAIL     ok           FAIL            FAIL",
        "v2, adds enum value buy                   ok       FAIL         ok              FAIL",
        "v2, drops additionalProperties: false     ok       ok           FAIL            ok",
        "",
      ].join("\n"),
    );
  });

  it("prints markdown", async () => {
    const result = await runCli([
      "matrix",
      "--format",
      "markdown",
      "--schema",
      `${S}/v1.json`,
      "--doc",
      `${D}/old-doc.json`,
      `${D}/with-amount.json`,
    ]);
    expect(result.stdout).toBe(
      "| Schema | old-doc | with-amount |\n| --- | --- | --- |\n| v1 (closed, additionalProperties: false) | ok | FAIL |\n",
    );
  });

  it("accepts repeated flags", async () => {
    const result = await runCli([
      "matrix",
      "--schema",
      `${S}/v1.json`,
      "--schema",
      `${S}/v2-open.json`,
      "--doc",
      `${D}/with-unknown-key.json`,
      "--format=json",
    ]);
    expect(JSON.parse(result.stdout).valid).toEqual([[false], [true]]);
  });

  it("exits 2 with a usage message when no documents are given", async () => {
    const result = await runCli(["matrix", "--schema", `${S}/v1.json`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("give at least one --doc FILE");
  });

  it("exits 2 naming a document that is not JSON", async () => {
    const result = await runCli(["matrix", "--schema", `${S}/v1.json`, "--doc", "eslint.config.js"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/eslint\.config\.js: not valid JSON/);
  });
});
