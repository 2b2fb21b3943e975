// What a poll calls a change: Apicurio's ids appearing on versions a saved snapshot had without them
// must rebuild the catalog, or the records that carry those ids stay unknown until something else changes.
import { describe, expect, it } from "vitest";

import { diffSnapshots } from "../../../src/registry/poller.js";
import type { RegistryVersion, SubjectSnapshot } from "../../../src/registry/types.js";

const version = (number: number, ids: { globalId?: number; contentId?: number } = {}): RegistryVersion => ({
  subject: "orders-value",
  version: number,
  id: 10 + number,
  ...ids,
  schema: { type: "object" },
  references: [],
  state: "ENABLED",
  deleted: false,
});
const snapshot = (versions: RegistryVersion[]): SubjectSnapshot => ({
  registry: "main",
  subject: "orders-value",
  versions,
  skipped: [],
  compatibility: undefined,
  fetchedAt: 1,
});

describe("diffSnapshots", () => {
  it("reports Apicurio ids that a version gained, and nothing when they are the same", () => {
    const saved = snapshot([version(1), version(2)]);
    const read = snapshot([
      version(1, { globalId: 21, contentId: 11 }),
      version(2, { globalId: 22, contentId: 12 }),
    ]);
    expect(diffSnapshots(saved, read)).toEqual([
      { kind: "ids", version: 1, globalId: 21, contentId: 11 },
      { kind: "ids", version: 2, globalId: 22, contentId: 12 },
    ]);
    expect(diffSnapshots(read, snapshot([...read.versions]))).toEqual([]);
  });
});
