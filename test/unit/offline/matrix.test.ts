import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { writeTree } from "../../helpers/files.js";

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
      files: ARTICLE_ARGS.slice(1, 6),
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

  it("validates each row against its own schema when versions share an $id", async () => {
    // Five versions, three of them keeping one $id (a common habit): each row must be its own file.
    const id = "https://example.com/schemas/event.json";
    const version = (title: string, amount: unknown, extra: Record<string, unknown> = {}) => ({
      $id: id,
      title,
      type: "object",
      properties: { amount: { $ref: "#/definitions/amount" } },
      definitions: { amount: amount },
      ...extra,
    });
    const dir = await writeTree({
      "1.0.json": version("1.0 integer amount", { type: "integer" }),
      "1.1.json": version("1.1 any number", { type: "number" }),
      "1.2.json": version("1.2 amount required", { type: "number" }, { required: ["amount"] }),
      "2.0.json": {
        ...version("2.0 string amount", { type: "string" }),
        $id: "https://example.com/schemas/event/2.0.json",
      },
      "3.0.json": { title: "3.0 closed", type: "object", additionalProperties: false },
      "docs/a-int.json": { amount: 1 },
      "docs/b-fraction.json": { amount: 1.5 },
      "docs/c-text.json": { amount: "1" },
      "docs/d-empty.json": {},
    });
    const docs = ["a-int", "b-fraction", "c-text", "d-empty"].map((d) => `${dir}/docs/${d}.json`);
    const files = ["1.0", "1.1", "1.2", "2.0", "3.0"].map((v) => `${dir}/${v}.json`);
    const result = await runCli(["matrix", "--schema", ...files, "--doc", ...docs, "--format", "json"]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.files).toEqual(files);
    expect(json.schemas).toEqual([
      "1.0 integer amount",
      "1.1 any number",
      "1.2 amount required",
      "2.0 string amount",
      "3.0 closed",
    ]);
    expect(json.valid).toEqual([
      [true, false, false, true],
      [true, true, false, true],
      [true, true, false, false],
      [false, false, true, true],
      [false, false, false, true],
    ]);
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
