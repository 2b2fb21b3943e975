import { describe, expect, it } from "vitest";
import { savedSnapshots } from "../../../src/registry/saved.js";
import type { RegistryVersion, SubjectSnapshot } from "../../../src/registry/types.js";

// The registry snapshots a state file keeps, read back at start (issue 36: every format survives a
// restart while the registry is down). A version of another format than JSON Schema keeps its text,
// and its `schema` is that text parsed as JSON where it is JSON (an Avro record, a union, a type's
// name) or the text itself (a .proto).

const PROTO = 'syntax = "proto3";\npackage shop;\nmessage Order { int64 id = 1; }\n';

function version(fields: Partial<RegistryVersion> & Pick<RegistryVersion, "schema">): RegistryVersion {
  return { subject: "order-value", version: 1, id: 7, references: [], deleted: false, ...fields };
}

function snapshot(versions: RegistryVersion[]): SubjectSnapshot {
  return {
    registry: "main",
    subject: "order-value",
    versions,
    skipped: [],
    compatibility: undefined,
    fetchedAt: 1,
  };
}

/** A snapshot as the state file holds it: written as JSON, read back. */
const roundTrip = (s: SubjectSnapshot): unknown => JSON.parse(JSON.stringify(s));

describe("savedSnapshots", () => {
  it("keeps a Protobuf version, whose schema is its .proto text, and an Avro one whose root is a union or a name", () => {
    const kept = [
      snapshot([version({ schema: PROTO, schemaType: "PROTOBUF", text: PROTO })]),
      snapshot([version({ schema: ["null", "string"], schemaType: "AVRO", text: '["null","string"]' })]),
      snapshot([version({ schema: "string", schemaType: "AVRO", text: '"string"' })]),
      snapshot([
        version({ schema: { type: "record", name: "A", fields: [] }, schemaType: "AVRO", text: "{}" }),
      ]),
      snapshot([version({ schema: { type: "object" } })]),
    ];
    expect(savedSnapshots(kept.map(roundTrip))).toEqual(kept);
  });

  it("drops a version that has not the shape its format saves: JSON Schema as text, another format without its text", () => {
    const dropped = [
      snapshot([version({ schema: "{}" })]),
      snapshot([version({ schema: ["a"] })]),
      snapshot([version({ schema: PROTO, schemaType: "PROTOBUF" })]),
      snapshot([version({ schema: PROTO, schemaType: "PROTOBUF", text: 7 as unknown as string })]),
    ];
    expect(savedSnapshots(dropped.map(roundTrip))).toEqual([]);
  });
});
