import { describe, expect, it } from "vitest";
import { loadConfig, parseConfig } from "../../../src/config/load.js";

const MIN = `subjects:
  - name: event
    topics: [events]
    schemas: ./schemas
`;

describe("config", () => {
  it("applies defaults, resolves paths against the config's folder and freezes the result", () => {
    const config = parseConfig(MIN, "/etc/sw/config.yaml");
    expect(config.kafka).toEqual({
      brokers: ["127.0.0.1:9092"],
      clientId: "schemawatch",
      groupId: "schemawatch",
      fromBeginning: false,
      lagInterval: 15000,
    });
    expect(config.http).toEqual({ host: "127.0.0.1", port: 9464 });
    const subject = config.subjects[0]!;
    expect(subject.schemas).toBe("/etc/sw/schemas");
    expect(subject.drainWindow).toBe(604800);
    expect(subject.writer).toEqual({
      sources: ["wire", "guid-header", "header", "pointer"],
      defaultSources: true,
      header: "schema-version",
      pointer: "/schema",
      wire: { idBytes: 4, id: "schemaId" },
    });
    expect(subject.producer).toEqual({ header: "producer", maxValues: 50 });
    expect(subject.sampling).toEqual({ ratio: 1, maxPerSecond: 5000 });
    expect(Object.isFrozen(config.subjects[0]!.topics)).toBe(true);
  });

  it("names an unknown key and its line", () => {
    const text = MIN + "    sampling:\n      ratio: 0.5\n      ratoi: 1\n";
    expect(() => parseConfig(text, "c.yaml")).toThrow(
      "c.yaml:7: subjects[0].sampling.ratoi: unknown key 'ratoi'",
    );
  });

  it("names a wrong value and its line", () => {
    const text = MIN + "    drainWindow: 7 days\n";
    expect(() => parseConfig(text, "c.yaml")).toThrow(
      "c.yaml:5: subjects[0].drainWindow: must be a duration such as 30s, 15m, 24h or 7d",
    );
  });

  it("names a missing required key", () => {
    expect(() => parseConfig("subjects:\n  - topics: [e]\n    schemas: x\n", "c.yaml")).toThrow(
      "c.yaml:2: subjects[0]: missing required key 'name'",
    );
  });

  it("needs a schemas folder or a registry for every subject", () => {
    expect(() => parseConfig("subjects:\n  - name: event\n    topics: [e]\n", "c.yaml")).toThrow(
      "c.yaml:2: subjects[0]: give schemas (a folder of schema files), registry (a schema registry subject), or both",
    );
  });

  it("reads Apicurio's wire ids, and refuses a combination no serializer writes, naming the key", () => {
    const registry = `registries:\n  main: { url: "http://127.0.0.1:8081" }\nsubjects:\n  - name: event\n    topics: [e]\n    registry: { name: main }\n`;
    const wired = (wire: string, sources = "") =>
      parseConfig(`${registry}    writer:\n${sources}      wire: ${wire}\n`, "c.yaml").subjects[0]!.writer;
    expect(wired("{ idBytes: 8, id: globalId }").wire).toEqual({ idBytes: 8, id: "globalId" });
    expect(wired("{ id: contentId }").wire).toEqual({ idBytes: 4, id: "contentId" });
    expect(() => wired("{ idBytes: 8 }")).toThrow(
      "c.yaml:8: subjects[0].writer.wire: idBytes 8 with id schemaId: an 8-byte id is written by Apicurio's serdes (DefaultIdHandler in 2.x, Legacy8ByteIdHandler in 3.x), as the id their apicurio.registry.use-id names: set id to globalId (their default) or contentId",
    );
    expect(() => wired("{ idBytes: 8, id: globalId }", "      sources: [apicurio-header]\n")).toThrow(
      "c.yaml:9: subjects[0].writer.wire: is set, but writer.sources leaves out wire, so no prefix is read: add wire to writer.sources or remove writer.wire",
    );
    expect(() => wired("{ idBytes: 6, id: globalId }")).toThrow("c.yaml:8: subjects[0].writer.wire.idBytes");
    expect(() =>
      parseConfig(`${MIN}    writer:\n      wire: { idBytes: 8, id: globalId }\n`, "c.yaml"),
    ).toThrow(
      "c.yaml:6: subjects[0].writer.wire: id globalId is an Apicurio id, which only the subject's registry maps to a version: give the subject a registry, or set id to schemaId with each version's confluentId",
    );
  });

  it("takes a registry subject without a schemas folder, but not folder versions without one", () => {
    const registry = `registries:\n  main: { url: "http://127.0.0.1:8081" }\nsubjects:\n  - name: event\n    topics: [e]\n    registry: { name: main }\n`;
    const config = parseConfig(registry, "/x/c.yaml");
    expect(config.subjects[0]!.schemas).toBeUndefined();
    expect(config.subjects[0]!.registry?.subject).toBe("e-value");
    expect(() =>
      parseConfig(`${registry}    versions:\n      "1.0.0": { status: active }\n`, "/x/c.yaml"),
    ).toThrow(
      "/x/c.yaml:7: subjects[0].versions: these name schema files, and the subject has no schemas folder; settings of registered versions go under registry.versions, keyed by the registry's version number",
    );
  });

  it("reports YAML syntax errors with line and column", () => {
    expect(() => parseConfig("subjects: [\n", "c.yaml")).toThrow(/^c\.yaml:\d+:\d+: not valid YAML/);
  });

  it("refuses a topic claimed by two subjects", () => {
    const text = MIN + "  - name: other\n    topics: [events]\n    schemas: x\n";
    expect(() => parseConfig(text, "c.yaml")).toThrow("topic 'events' already belongs to subject 'event'");
  });

  it("refuses a key pattern that is not a regular expression", () => {
    expect(() => parseConfig(MIN + "    producer:\n      keyPattern: '('\n", "c.yaml")).toThrow(
      "subjects[0].producer.keyPattern: not a regular expression",
    );
  });

  it("refuses a key pattern only a backtracking engine can run, naming the file, line and key; takes a nested quantifier", () => {
    for (const pattern of ["^(?=a)(a+)+$", "^(a)\\1$", "(?<=x)y", "^(ab){1001}$"]) {
      expect(() => parseConfig(MIN + `    producer:\n      keyPattern: '${pattern}'\n`, "c.yaml")).toThrow(
        `c.yaml:6: subjects[0].producer.keyPattern: /${pattern}/ needs a backtracking engine`,
      );
    }
    const config = parseConfig(MIN + "    producer:\n      keyPattern: '^(a+)+$'\n", "c.yaml");
    expect(config.subjects[0]!.producer.keyPattern).toBe("^(a+)+$");
  });

  it("names an unreadable file", async () => {
    await expect(loadConfig("/nonexistent/config.yaml")).rejects.toThrow(
      "/nonexistent/config.yaml: cannot read config",
    );
  });
});
