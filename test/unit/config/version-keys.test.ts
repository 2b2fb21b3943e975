import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/load.js";

const SUBJECT = `subjects:
  - name: event
    topics: [events]
    schemas: ./schemas
    versions:
`;

function refusal(text: string): string {
  try {
    parseConfig(text, "/x/c.yaml");
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("version keys of a subject", () => {
  it("two spellings of one version are refused with the file, both keys and both lines", () => {
    const text = `${SUBJECT}      "1.0.0": { status: deprecated }\n      "1.1.0": { status: active }\n      "1.0": { status: active }\n`;
    expect(refusal(text)).toBe(
      "/x/c.yaml:8: subjects[0].versions: '1.0' and '1.0.0' (line 6) both name version 1.0.0; give each version one entry",
    );
  });

  it("a v prefix, an unquoted number and a prerelease are the same version as their full form", () => {
    expect(refusal(`${SUBJECT}      2: { status: active }\n      v2.0.0: { status: retired }\n`)).toBe(
      "/x/c.yaml:7: subjects[0].versions: 'v2.0.0' and '2' (line 6) both name version 2.0.0; give each version one entry",
    );
    expect(
      refusal(
        `${SUBJECT}      "1.1-rc.1": { status: candidate }\n      "1.1.0-rc.1": { status: candidate }\n`,
      ),
    ).toBe(
      "/x/c.yaml:7: subjects[0].versions: '1.1.0-rc.1' and '1.1-rc.1' (line 6) both name version 1.1.0-rc.1; give each version one entry",
    );
  });

  it("names the subject by its place in the list", () => {
    const other = `  - name: other\n    topics: [others]\n    schemas: ./o\n    versions:\n      "3.0.0": { status: active }\n      "3": { status: active }\n`;
    expect(refusal(`${SUBJECT}      "1.0.0": { status: active }\n${other}`)).toBe(
      "/x/c.yaml:12: subjects[1].versions: '3' and '3.0.0' (line 11) both name version 3.0.0; give each version one entry",
    );
  });

  it("an unquoted key is the version as written: 1.10 is 1.10.0, not the number 1.1", () => {
    const text = `${SUBJECT}      1.10: { status: deprecated }\n      2: { status: active }\n`;
    expect(parseConfig(text, "/x/c.yaml").subjects[0]!.versions).toEqual({
      "1.10": { status: "deprecated" },
      "2": { status: "active" },
    });
  });

  it("1.1 and 1.10 unquoted are one number to YAML, whose unique-key check refuses them with the line", () => {
    expect(refusal(`${SUBJECT}      1.10: { status: deprecated }\n      1.1: { status: active }\n`)).toBe(
      "/x/c.yaml:7:7: not valid YAML: Map keys must be unique",
    );
  });

  it("distinct versions are kept as given", () => {
    const text = `${SUBJECT}      "1.0.0": { status: deprecated }\n      "1.1": { status: active }\n`;
    expect(parseConfig(text, "/x/c.yaml").subjects[0]!.versions).toEqual({
      "1.0.0": { status: "deprecated" },
      "1.1": { status: "active" },
    });
  });
});
