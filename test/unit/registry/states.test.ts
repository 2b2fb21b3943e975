// Pure: a version's state from Confluent metadata, and which versions a poll saw retired.
import { describe, expect, it } from "vitest";

import { retiredBetween, stateFromMetadata } from "../../../src/registry/states.js";
import type { RegistryVersion, SubjectSnapshot } from "../../../src/registry/types.js";

const metadata = (properties: unknown) => ({ schema: "{}", metadata: { properties } });

describe("stateFromMetadata", () => {
  it("reads the schemawatch.status property of a version's Confluent metadata", () => {
    expect(stateFromMetadata(metadata({ "schemawatch.status": "deprecated" }))).toBe("DEPRECATED");
    expect(stateFromMetadata(metadata({ "schemawatch.status": "Retired " }))).toBe("DISABLED");
    expect(stateFromMetadata(metadata({ "schemawatch.status": "candidate" }))).toBe("DRAFT");
    expect(stateFromMetadata(metadata({ "schemawatch.status": "active" }))).toBe("ENABLED");
  });

  it("says nothing without the property, or with a value it does not know", () => {
    expect(stateFromMetadata({ schema: "{}" })).toBeUndefined();
    expect(stateFromMetadata({ metadata: null })).toBeUndefined();
    expect(stateFromMetadata(metadata({ owner: "team-a" }))).toBeUndefined();
    expect(stateFromMetadata(metadata({ "schemawatch.status": "gone" }))).toBeUndefined();
    expect(stateFromMetadata(metadata({ "schemawatch.status": 1 }))).toBeUndefined();
  });
});

function version(n: number, extra: Partial<RegistryVersion> = {}): RegistryVersion {
  return { subject: "s", version: n, id: 100 + n, schema: {}, references: [], deleted: false, ...extra };
}

function snapshot(versions: RegistryVersion[], skipped: number[] = []): SubjectSnapshot {
  return {
    registry: "main",
    subject: "s",
    versions,
    skipped: skipped.map((v) => ({ subject: "s", version: v, reason: "invalid_schema", message: "" })),
    compatibility: undefined,
    fetchedAt: 0,
  };
}

describe("retiredBetween", () => {
  it("counts versions in use before and soft-deleted, DISABLED or gone after", () => {
    const before = snapshot([version(1), version(2, { state: "DEPRECATED" }), version(3), version(4)]);
    const after = snapshot([
      version(1, { deleted: true }),
      version(2, { state: "DISABLED" }),
      version(4, { state: "DEPRECATED" }),
    ]);
    expect(retiredBetween(before, after)).toEqual([1, 2, 3]);
  });

  it("counts nothing on the first read, for versions retired already, or for one now left out", () => {
    const after = snapshot([version(1, { deleted: true }), version(2, { state: "DISABLED" })], [3]);
    expect(retiredBetween(undefined, after)).toEqual([]);
    const before = snapshot([version(1, { deleted: true }), version(2, { state: "DISABLED" }), version(3)]);
    expect(retiredBetween(before, after)).toEqual([]);
  });
});
