import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import type { CatalogVersion } from "../../../src/catalog/types.js";
import { parseVersion } from "../../../src/catalog/version.js";
import type { ReaderCheck } from "../../../src/formats/format.js";
import { FORMATS, formatOfFile, formatOfRegistryType, JSON_FORMAT } from "../../../src/formats/index.js";

const compiler = new SchemaCompiler();
const reader = {
  subject: "event",
  version: parseVersion("1.0", "test"),
  status: "active",
  validate: compiler.compileVersion({
    uri: "https://example.com/event/1.0.json",
    name: "1.0.json",
    json: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
  }),
} as unknown as CatalogVersion;

const bytes = (text: string, prefix: number[] = []) =>
  Buffer.concat([Buffer.from(prefix), Buffer.from(text)]);

describe("the JSON Schema format", () => {
  it("decodes a body past its wire prefix into the document and the text the reservoir keeps", () => {
    const decoded = JSON_FORMAT.decode(undefined, bytes('{"id":7}', [0, 0, 0, 0, 9]), 5);
    expect(decoded).toEqual({ value: { id: 7 }, text: '{"id":7}' });
    expect(JSON_FORMAT.document({ id: 7 })).toEqual({ id: 7 });
  });

  it("names what it cannot decode: not UTF-8, not JSON", () => {
    expect(JSON_FORMAT.decode(undefined, Buffer.from([0xff, 0xfe]), 0)).toBe("not_utf8");
    expect(JSON_FORMAT.decode(undefined, bytes("{"), 0)).toBe("not_json");
  });

  it("checks a reader by validating the document: ok, or fails with the keyword and the instance path", () => {
    const out: ReaderCheck = { outcome: "fails", rule: "x", location: "/x" };
    JSON_FORMAT.check(reader, { id: 1 }, out);
    expect(out).toEqual({ outcome: "ok", rule: null, location: null });
    JSON_FORMAT.check(reader, { id: "one" }, out);
    expect(out).toEqual({ outcome: "fails", rule: "type", location: "/id" });
  });

  it("gives each validation an empty $dynamicAnchor scope: two readers with one anchor name never see each other's", () => {
    // Both trees name their node `node`; a `$dynamicRef` resolves to the first validator that wrote the
    // anchor in this validation's scope. The check hands ajv one context for every call (no object made
    // per call): were an anchor left in it, the second reader would judge children by the first's node.
    // The catalog compiles such schemas with schemasafe (catalog/annotations.ts), which takes no
    // context; ajv's own validators are checked here, as the check would run them.
    const tree = (version: string, name: "string" | "integer") =>
      ({
        subject: "tree",
        version: parseVersion(version, "test"),
        status: "active",
        validate: new Ajv2020({ strict: false, logger: false }).compile({
          $id: `https://example.com/tree/${version}.json`,
          $dynamicAnchor: "node",
          type: "object",
          properties: {
            name: { type: name },
            children: { type: "array", items: { $dynamicRef: "#node" } },
          },
        }),
      }) as unknown as CatalogVersion;
    const [strings, integers] = [tree("1.0", "string"), tree("2.0", "integer")];
    const outcome = (version: CatalogVersion, document: unknown) => {
      const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
      JSON_FORMAT.check(version, document, out);
      return `${out.outcome} ${out.rule} ${out.location}`;
    };
    const named = { name: "a", children: [{ name: "b" }] };
    const numbered = { name: 1, children: [{ name: 2 }] };
    expect([
      outcome(strings, named),
      outcome(integers, numbered),
      outcome(integers, named),
      outcome(strings, numbered),
      outcome(strings, { name: "a", children: [{ name: 2 }] }),
      outcome(integers, { name: 1, children: [{ name: "b" }] }),
    ]).toEqual([
      "ok null null",
      "ok null null",
      "fails type /name",
      "fails type /name",
      "fails type /children/0/name",
      "fails type /children/0/name",
    ]);
  });

  it("parses a registry's schema text, and refuses text that is not JSON, naming where it came from", () => {
    expect(JSON_FORMAT.parse({ name: "a.json", text: '{"type":"string"}', references: [] })).toEqual({
      format: "json",
      json: { type: "string" },
    });
    expect(() =>
      JSON_FORMAT.parse({ name: "registry:main/e/versions/2", text: "{", references: [] }),
    ).toThrow(/^registry:main\/e\/versions\/2: not valid JSON/);
  });
});

describe("the formats table", () => {
  it("finds a format by registry type, and by file extension whatever its case", () => {
    expect(formatOfRegistryType("JSON")).toBe(JSON_FORMAT);
    expect(formatOfRegistryType("XML")).toBeUndefined();
    expect(formatOfFile("/schemas/event/1.0.JSON")).toBe(JSON_FORMAT);
    expect(formatOfFile("/schemas/event/notes.txt")).toBeUndefined();
    expect(FORMATS.get("json")).toBe(JSON_FORMAT);
  });
});
