import { describe, expect, it } from "vitest";

import type { RegistryVersion } from "../../../src/registry/types.js";
import { labelVersions, statusOf } from "../../../src/registry/versions.js";

function version(number: number, schema: unknown, extra: Partial<RegistryVersion> = {}): RegistryVersion {
  return {
    subject: "events-value",
    version: number,
    id: 100 + number,
    schema,
    references: [],
    deleted: false,
    ...extra,
  };
}

const id = (semver: string) => ({ $id: `https://example.com/schemas/event/${semver}.json`, type: "object" });

describe("labelVersions", () => {
  it("labels: number shows the registry's numbers, ordered as semver majors", () => {
    const { labelled, unlabelled } = labelVersions([version(3, id("1.1")), version(1, id("1.0"))], {
      labels: "number",
      versions: {},
    });
    expect(labelled.map((l) => [l.version.version, l.label, l.semver.text])).toEqual([
      [1, "1", "1.0.0"],
      [3, "3", "3.0.0"],
    ]);
    expect(unlabelled).toEqual([]);
  });

  it("labels: semver takes the config's label, else the $id's semver", () => {
    const { labelled } = labelVersions(
      [version(1, id("1.0")), version(2, { type: "object" }), version(3, id("1.2"))],
      {
        labels: "semver",
        versions: { "2": { label: "1.1" } },
      },
    );
    expect(labelled.map((l) => [l.version.version, l.label])).toEqual([
      [1, "1.0.0"],
      [2, "1.1.0"],
      [3, "1.2.0"],
    ]);
  });

  it("leaves out, with the fix, a version without a label and one whose label does not rise", () => {
    const { labelled, unlabelled } = labelVersions(
      [version(1, id("1.0")), version(2, id("1.0")), version(3, { type: "object" }), version(4, id("1.1"))],
      { labels: "semver", versions: {} },
    );
    // Version 2 reuses 1's $id (a common slip): it cannot be told apart from 1 by label.
    expect(labelled.map((l) => [l.version.version, l.label])).toEqual([
      [1, "1.0.0"],
      [4, "1.1.0"],
    ]);
    expect(unlabelled).toEqual([
      {
        subject: "events-value",
        version: 2,
        id: 102,
        reason: "no_label",
        message:
          'events-value version 2 (id 102): its label 1.0.0 does not rise above 1.0.0 of version 1; give it one in the config: registry.versions."2".label',
      },
      {
        subject: "events-value",
        version: 3,
        id: 103,
        reason: "no_label",
        message:
          'events-value version 3 (id 103): its $id names no semver version; give it one in the config: registry.versions."3".label',
      },
    ]);
  });

  it("keeps the labels of earlier versions when a later one arrives", () => {
    const before = labelVersions([version(1, id("1.0")), version(2, id("1.1"))], {
      labels: "semver",
      versions: {},
    });
    const after = labelVersions(
      [version(1, id("1.0")), version(2, id("1.1")), version(3, { type: "object" })],
      {
        labels: "semver",
        versions: {},
      },
    );
    expect(after.labelled.map((l) => l.label)).toEqual(before.labelled.map((l) => l.label));
  });

  it("reads a draft-04 id", () => {
    const { labelled } = labelVersions([version(1, { id: "https://example.com/event/2.0.json" })], {
      labels: "semver",
      versions: {},
    });
    expect(labelled.map((l) => l.label)).toEqual(["2.0.0"]);
  });
});

describe("statusOf", () => {
  it("follows the registry: deleted or DISABLED is retired, DEPRECATED deprecated, DRAFT candidate", () => {
    const none = { versions: {} };
    expect(statusOf(version(1, {}), none)).toBe("active");
    expect(statusOf(version(1, {}, { state: "ENABLED" }), none)).toBe("active");
    expect(statusOf(version(1, {}, { deleted: true }), none)).toBe("retired");
    expect(statusOf(version(1, {}, { state: "DISABLED" }), none)).toBe("retired");
    expect(statusOf(version(1, {}, { state: "DEPRECATED" }), none)).toBe("deprecated");
    expect(statusOf(version(1, {}, { state: "DRAFT" }), none)).toBe("candidate");
  });

  it("lets the config win, even over a deletion", () => {
    const config = { versions: { "1": { status: "deprecated" as const } } };
    expect(statusOf(version(1, {}, { deleted: true, state: "DISABLED" }), config)).toBe("deprecated");
    expect(statusOf(version(2, {}, { state: "DEPRECATED" }), config)).toBe("deprecated");
  });
});
