import { describe, expect, it } from "vitest";
import {
  compareVersions,
  normalizeVersion,
  parseVersion,
  versionFromFileName,
  versionFromId,
} from "../../../src/catalog/version.js";

describe("versions", () => {
  it("normalizes short forms: 1.1 means 1.1.0", () => {
    expect(normalizeVersion("1.1")).toBe("1.1.0");
    expect(normalizeVersion("2")).toBe("2.0.0");
    expect(normalizeVersion("v1.2.3-rc.1")).toBe("1.2.3-rc.1");
    expect(normalizeVersion("1.x")).toBeUndefined();
    expect(normalizeVersion("01.1")).toBeUndefined();
  });

  it("orders by semver precedence", () => {
    const sorted = ["1.10.0", "1.2.0", "1.2.0-rc.2", "1.2.0-rc.10", "1.2.0-beta", "0.9.9"]
      .map((t) => parseVersion(t, "test"))
      .sort(compareVersions)
      .map((v) => v.text);
    expect(sorted).toEqual(["0.9.9", "1.2.0-beta", "1.2.0-rc.2", "1.2.0-rc.10", "1.2.0", "1.10.0"]);
  });

  it("reads the version from $id as the article writes it", () => {
    expect(versionFromId("https://example.com/schemas/event/1.1.json")?.text).toBe("1.1.0");
    expect(versionFromId("https://example.com/schemas/event/v2/schema.json")?.text).toBe("2.0.0");
    expect(versionFromId("https://example.com/schemas/event.json")).toBeUndefined();
  });

  it("reads the version from file names", () => {
    expect(versionFromFileName("1.1.json")?.text).toBe("1.1.0");
    expect(versionFromFileName("event-1.2.0.json")?.text).toBe("1.2.0");
    expect(versionFromFileName("v2.json")?.text).toBe("2.0.0");
    expect(versionFromFileName("common.json")).toBeUndefined();
  });

  it("rejects a version that is not semver with the place it came from", () => {
    expect(() => parseVersion("one", "config.yaml: versions")).toThrow(
      "config.yaml: versions: 'one' is not a semver version",
    );
  });
});
