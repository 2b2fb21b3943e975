import { describe, expect, it } from "vitest";
import { diffProto, type ProtoDiffResult } from "../../../../src/diff/protobuf/index.js";
import { PROTOBUF_FORMAT } from "../../../../src/formats/protobuf/index.js";
import type { ProtoSchema } from "../../../../src/formats/protobuf/parse.js";
import {
  APICURIO_CHECKER,
  APICURIO_LIBRARY,
  type CheckerPair,
} from "../../../fixtures/checker-pairs/apicurio-protobuf.js";

// docs/diff.md, "Against Apicurio's checker": every pair of Apicurio's Protobuf checker tests, run by
// `diff`, with the exact agreements and disagreements. Each disagreement is Apicurio calling a change
// incompatible that no record shows: its witness is what a reader makes of a record (lossy at worst).

const files = (imports?: Readonly<Record<string, string>>) =>
  Object.entries(imports ?? {}).map(([name, text]) => ({ name, text, references: [] }));
const run = (pair: CheckerPair): ProtoDiffResult | string => {
  try {
    // Each side read as `diff` reads OLD and NEW (the format's parseFile): a file of enums only too.
    const read = (name: string, text: string) =>
      PROTOBUF_FORMAT.parseFile!({ name, text, references: files(pair.imports) }) as ProtoSchema;
    return diffProto(read("old.proto", pair.old), read("new.proto", pair.new));
  } catch (error) {
    return (error as Error).message;
  }
};
const holds = (r: ProtoDiffResult, level: CheckerPair["level"]) =>
  level === "BACKWARD"
    ? r.backward === "ok"
    : level === "FORWARD"
      ? r.forward === "ok"
      : r.backward === "ok" && r.forward === "ok";

/** name -> "agree", or the disagreement: our verdicts both ways and each change's witnesses (hex). */
function judge(pairs: readonly CheckerPair[]): Record<string, unknown> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const r = run(pair);
      if (typeof r === "string") return [pair.name, `refused: ${r}`];
      if (holds(r, pair.level) === pair.compatible) return [pair.name, "agree"];
      return [
        pair.name,
        {
          backward: r.backward,
          forward: r.forward,
          changes: r.changes.map((c) =>
            [
              c.kind,
              c.path,
              ...(["backward", "forward"] as const).map((w) => `${w} ${c.witness?.[w]?.bytes ?? "-"}`),
            ].join(" "),
          ),
        },
      ];
    }),
  );
}

const renumbered = (path1: string, hex1: string, path5: string, hex5: string) => ({
  backward: "ok",
  forward: "ok",
  changes: [
    `field-removed ${path1} backward ${hex1} forward `,
    `field-added ${path5} backward  forward ${hex5}`,
  ],
});
const idTo5 = renumbered(
  "shop.Customer.id(#1)",
  "08ffffffffffffffffff01",
  "shop.Customer.id(#5)",
  "28ffffffffffffffffff01",
);
const patch = (kind: string, path: string) => ({
  backward: "ok",
  forward: "ok",
  changes: [`${kind} ${path} backward - forward -`],
});

describe("diff of a Protobuf pair, against Apicurio's own checker tests", () => {
  it("ProtobufCompatibilityCheckerTest: 11 pairs, 3 agree, 8 disagree", () => {
    expect(judge(APICURIO_CHECKER)).toEqual({
      testBackwardCompatibility_FieldIdChanged_ReturnsDetailedError: idTo5,
      testBackwardCompatibility_FieldTypeChanged_ReturnsDetailedError: "agree",
      testBackwardCompatibility_ContextPath_IsExtracted: idTo5,
      testForwardCompatibility_ReturnsDetailedError: idTo5,
      testFullCompatibility_ReturnsDetailedError: idTo5,
      "testBackwardTransitive_ReturnsDetailedErrors (first version)": {
        backward: "ok",
        forward: "ok",
        changes: [
          "field-removed shop.Customer.id(#1) backward 08ffffffffffffffffff01 forward ",
          "field-added shop.Customer.mail(#3) backward  forward 1a02c3a9",
          "field-added shop.Customer.id(#5) backward  forward 28ffffffffffffffffff01",
        ],
      },
      "testBackwardTransitive_ReturnsDetailedErrors (second version)": idTo5,
      testCompatibleSchemas_ReturnsNoDifferences: "agree",
      testMultipleIncompatibilities_ReturnsAllErrors: "agree",
      testRpcSignatureChanged_ReturnsDetailedError: patch("schema-changed", "shop"),
      testFieldNameChanged_ReturnsDetailedError: patch("field-renamed", "shop.Customer.after(#2)"),
    });
  });

  it("ProtobufCompatibilityCheckerLibraryTest: 29 pairs, 20 agree, 9 disagree; the three files of enums only judge as they do with the enum in a message", () => {
    const judged = judge(APICURIO_LIBRARY);
    expect(judged).toEqual({
      testMapStringStringCompatibility: "agree",
      testAddingNewFieldIsForwardCompatible: "agree",
      testQualifiedVsUnqualifiedNestedTypeCompatibility: "agree",
      testNestedTypeResolution: "agree",
      testCrossPackageTypeReferences: "agree",
      // OLD reserved the name (or number): none of OLD's records carries it, so NEW reads them all.
      testUsingReservedFieldName: {
        backward: "ok",
        forward: "ok",
        changes: ["field-added t.Box.gone(#3) backward  forward 1a02c3a9"],
      },
      testUsingReservedFieldId: {
        backward: "ok",
        forward: "ok",
        changes: ["field-added t.Box.fresh(#1) backward  forward 0a02c3a9"],
      },
      testRemovingFieldWithoutReservation: {
        backward: "ok",
        forward: "ok",
        changes: ["field-removed t.Box.gone(#1) backward 0a02c3a9 forward "],
      },
      testRemovingFieldWithReservation: "agree",
      testRemovingFieldWithRangeReservation: "agree",
      testChangingFieldIdIsIncompatible: renumbered(
        "t.Box.label(#1)",
        "0a02c3a9",
        "t.Box.label(#3)",
        "1a02c3a9",
      ),
      // ON kept but moved from 1 to 5: every record decodes, but a reader takes the other's ON for a number it has no name for.
      testChangingEnumConstantTag: "agree",
      "testChangingEnumConstantTag (enum in a message)": "agree",
      testIncompatibleTypeChange: "agree",
      testFieldLabelChange: "agree",
      testRenamingField: patch("field-renamed", "t.Box.after(#1)"),
      testRenamingEnumConstant: patch("enum-value-renamed", "t.Phase.AFTER(=1)"),
      "testRenamingEnumConstant (enum in a message)": patch("enum-value-renamed", "t.Phase.AFTER(=1)"),
      testRemovingRpcMethod: patch("schema-changed", "t"),
      testChangingRpcSignature: patch("schema-changed", "t"),
      testChangingStreamingMode: patch("schema-changed", "t"),
      testAddingRequiredFieldProto2: "agree",
      testAddingOptionalFieldProto2: "agree",
      testParentScopeResolution: "agree",
      testDeeplyNestedTypes: "agree",
      testNestedTypeWithoutPackage: "agree",
      testTopLevelTypeReferences: "agree",
      testAddingEnumValue: "agree",
      "testAddingEnumValue (enum in a message)": "agree",
      testNestedEnumReferences: "agree",
      testGrandparentScopeTypeReferences: "agree",
      testProto2MapFieldAndImportedReferenceCompatibility: "agree",
    });
    const upstream = Object.entries(judged).filter(([name]) => !name.endsWith("(enum in a message)"));
    expect(upstream).toHaveLength(29);
    expect(upstream.filter(([, v]) => v === "agree")).toHaveLength(20);
    expect(upstream.filter(([, v]) => typeof v === "string" && v.startsWith("refused"))).toHaveLength(0);
    const wrapped = Object.entries(judged).filter(([name]) => name.endsWith("(enum in a message)"));
    expect(wrapped).toHaveLength(3);
    expect(wrapped.filter(([, v]) => v === "agree")).toHaveLength(2);
  });
});
