import avro from "avsc";
import { describe, expect, it } from "vitest";
import type { CatalogVersion } from "../../../../src/catalog/types.js";
import { diffAvro } from "../../../../src/diff/avro/index.js";
import { AVRO_FORMAT, type AvroSchema } from "../../../../src/formats/avro/index.js";
import type { Decoded, ReaderCheck } from "../../../../src/formats/format.js";
import {
  APICURIO_AVRO_CALLS,
  APICURIO_AVRO_SCHEMAS,
  APICURIO_AVRO_SMOKE,
  type AvroCall,
} from "../../../fixtures/checker-pairs/apicurio-avro.js";

// docs/diff.md, "Against Apicurio's checker": every assertion of Apicurio's Avro checker tests, run
// by `diff`. A non-transitive level compares NEW with the latest previous schema only, a transitive
// one with each, as Avro's SchemaValidator (validateLatest / validateAll) does.

const parse = (schema: unknown) =>
  AVRO_FORMAT.parse({ name: "x.avsc", text: JSON.stringify(schema), references: [] }) as AvroSchema;
const ours = (call: AvroCall) =>
  (call.transitive ? call.previous : call.previous.slice(-1)).every((old) => {
    const r = diffAvro(parse(APICURIO_AVRO_SCHEMAS[old]), parse(APICURIO_AVRO_SCHEMAS[call.next]));
    const [b, f] = [r.backward.verdict === "ok", r.forward.verdict === "ok"];
    return call.level === "BACKWARD" ? b : call.level === "FORWARD" ? f : b && f;
  });

describe("diff of an Avro pair, against Apicurio's own checker tests", () => {
  it("AvroCompatibilityTest: 32 assertions, 31 agree; the one that does not is an alias Apicurio's test does not follow", () => {
    const disagree = APICURIO_AVRO_CALLS.filter((call) => ours(call) !== call.compatible).map(
      (c) =>
        `${c.test}: schema${c.next} after [${c.previous.join(",")}] ${c.level} (Apicurio ${c.compatible})`,
    );
    expect(APICURIO_AVRO_CALLS).toHaveLength(32);
    expect(disagree).toEqual([
      "testBasicBackwardsCompatibility: schema4 after [1] BACKWARD (Apicurio false)",
    ]);
  });

  it("the alias pair: NEW reads OLD's record through the alias, as the Avro spec and Confluent say", () => {
    const [old, next] = [parse(APICURIO_AVRO_SCHEMAS[1]), parse(APICURIO_AVRO_SCHEMAS[4])];
    expect(diffAvro(old, next).backward).toEqual({ verdict: "ok" });
    // The witness: OLD's {"f1": ""} (one byte, 00), read by NEW as f1_new, with nothing failing.
    const body = avro.Type.forSchema(old.json as avro.Schema, { wrapUnions: true }).toBuffer({ f1: "" });
    expect(body.toString("hex")).toBe("00");
    const decoded = AVRO_FORMAT.decode({ schema: old } as unknown as CatalogVersion, body, 0) as Decoded;
    const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
    AVRO_FORMAT.check({ schema: next } as unknown as CatalogVersion, decoded.value, out);
    expect(out).toEqual({ outcome: "ok", rule: null, location: null });
  });

  it("compatibility-test-data.json (AvroSchemaSmokeTest): 4 cases, 4 agree", () => {
    const classify = (original: unknown, updated: unknown) => {
      const r = diffAvro(parse(original), parse(updated));
      const [b, f] = [r.backward.verdict === "ok", r.forward.verdict === "ok"];
      return b && f ? "both" : b ? "backward" : f ? "forward" : "none";
    };
    expect(APICURIO_AVRO_SMOKE.map((c) => [c.id, classify(c.original, c.updated)])).toEqual(
      APICURIO_AVRO_SMOKE.map((c) => [c.id, c.compatibility]),
    );
    expect(APICURIO_AVRO_SMOKE.map((c) => c.compatibility)).toEqual(["backward", "both", "none", "backward"]);
  });
});
