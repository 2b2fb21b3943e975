import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "../../../src/cli/suggest.js";

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("run", "run")).toBe(0);
    expect(editDistance("--confg", "--config")).toBe(1);
    expect(editDistance("--config", "--confg")).toBe(1);
    expect(editDistance("rnu", "run")).toBe(2);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
  });
});

describe("closest", () => {
  const flags = ["--config", "--source", "--format", "--brokers", "--host", "--port", "--help"];

  it("names the known flag within two edits", () => {
    expect(closest("--confg", flags)).toBe("--config");
    expect(closest("--sorce", flags)).toBe("--source");
    expect(closest("--brokrs", flags)).toBe("--brokers");
  });

  it("names nothing three edits away or more", () => {
    expect(closest("--bogus", flags)).toBeUndefined();
    expect(closest("--speed", flags)).toBeUndefined();
  });

  it("prefers the nearest, then the first listed", () => {
    // --hosts is one edit from --host and two from --port and --help
    expect(closest("--hosts", flags)).toBe("--host");
    // --hp is two edits from --help and three from --host
    expect(closest("--hp", flags)).toBe("--help");
    // ab is one edit from both: the first listed wins
    expect(closest("ab", ["aa", "bb"])).toBe("aa");
    expect(closest("ab", ["bb", "aa"])).toBe("bb");
  });
});

describe("didYouMean", () => {
  it("ends a message with the suggestion, quoted as asked, or with nothing", () => {
    expect(didYouMean("--confg", ["--config"])).toBe("; did you mean --config?");
    expect(didYouMean("rnu", ["run", "report"], (s) => `'${s}'`)).toBe("; did you mean 'run'?");
    expect(didYouMean("frobnicate", ["run"])).toBe("");
  });
});
