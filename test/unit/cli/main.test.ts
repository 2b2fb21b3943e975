import { describe, expect, it } from "vitest";
import { diffCommand } from "../../../src/cli/commands/diff.js";
import { matrixCommand } from "../../../src/cli/commands/matrix.js";
import { registryCommand } from "../../../src/cli/commands/registry.js";
import { runCommand } from "../../../src/cli/commands/run.js";
import { main } from "../../../src/cli/main.js";
import { runCli } from "../../helpers/cli.js";

// The command line's own words: help for one command, and what it says about a typo. The exact text,
// since it is what a user reads.

describe("schemawatch help COMMAND", () => {
  it("prints that command's help, as COMMAND --help does, and exits 0", async () => {
    for (const command of [runCommand, diffCommand, registryCommand]) {
      const viaHelp = await runCli(["help", command.name]);
      expect(viaHelp).toEqual({ code: 0, stdout: command.help, stderr: "" });
      expect(await runCli([command.name, "--help"])).toEqual(viaHelp);
      expect(await runCli([command.name, "-h"])).toEqual(viaHelp);
      expect(await runCli(["--help", command.name])).toEqual(viaHelp);
    }
    expect((await runCli(["help", "run"])).stdout).toMatch(/^Usage: schemawatch run --config FILE/);
  });

  it("prints the top-level help for plain help, and says which command is unknown", async () => {
    const top = await runCli(["help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^schemawatch \d+\.\d+\.\d+ — watch JSON on Kafka/);
    expect(top.stdout).toContain(
      "  help COMMAND    show a command's help, as 'schemawatch COMMAND --help' does\n",
    );
    // help about help is the top-level help, however it is asked for
    for (const args of [
      ["help", "help"],
      ["help", "--help"],
      ["--help", "help"],
      ["-h", "-h"],
    ]) {
      const asked = await runCli(args);
      expect(asked, args.join(" ")).toEqual({ code: 0, stdout: top.stdout, stderr: "" });
      expect(asked.stdout.split("\n")[0], args.join(" ")).toBe(
        "schemawatch 0.1.0 — watch JSON on Kafka against every version of its JSON Schema",
      );
    }
    expect(await runCli(["help", "rnu"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "schemawatch: unknown command 'rnu'; did you mean 'run'? Run 'schemawatch --help' for the list.\n",
    });
  });
});

describe("unknown commands", () => {
  it("suggests the command within two edits", async () => {
    expect(await runCli(["reprot"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "schemawatch: unknown command 'reprot'; did you mean 'report'? Run 'schemawatch --help' for the list.\n",
    });
    expect((await runCli(["dif"])).stderr).toBe(
      "schemawatch: unknown command 'dif'; did you mean 'diff'? Run 'schemawatch --help' for the list.\n",
    );
  });

  it("suggests nothing when no command is near", async () => {
    expect((await runCli(["frobnicate"])).stderr).toBe(
      "schemawatch: unknown command 'frobnicate'. Run 'schemawatch --help' for the list.\n",
    );
  });
});

describe("unknown and malformed flags", () => {
  it("names the unknown flag and the known one within two edits", async () => {
    expect(await runCli(["run", "--confg", "x.yaml"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "schemawatch run: unknown flag --confg; did you mean --config?\nRun 'schemawatch run --help' for usage.\n",
    });
    expect((await runCli(["run", "--config=x.yaml", "--exit-at-ed"])).stderr).toBe(
      "schemawatch run: unknown flag --exit-at-ed; did you mean --exit-at-end?\n" +
        "Run 'schemawatch run --help' for usage.\n",
    );
    expect((await runCli(["diff", "a.json", "b.json", "--polcy=lenient"])).stderr).toBe(
      "schemawatch diff: unknown flag --polcy; did you mean --policy?\nRun 'schemawatch diff --help' for usage.\n",
    );
    // flags that matrix reads before parsing are suggested too
    expect((await runCli(["matrix", "--schma", "a.json"])).stderr).toBe(
      "schemawatch matrix: unknown flag --schma; did you mean --schema?\n" +
        "Run 'schemawatch matrix --help' for usage.\n",
    );
    expect(matrixCommand.help).toContain("--schema FILE");
  });

  it("names an unknown flag with no near one, long or short, without a suggestion", async () => {
    expect((await runCli(["run", "--bogus"])).stderr).toBe(
      "schemawatch run: unknown flag --bogus\nRun 'schemawatch run --help' for usage.\n",
    );
    expect((await runCli(["run", "-x"])).stderr).toBe(
      "schemawatch run: unknown flag -x\nRun 'schemawatch run --help' for usage.\n",
    );
  });

  it("says which flag needs a value or takes none", async () => {
    expect(await runCli(["run", "--config"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "schemawatch run: flag --config needs a value\nRun 'schemawatch run --help' for usage.\n",
    });
    expect((await runCli(["run", "-c"])).stderr).toBe(
      "schemawatch run: flag --config needs a value\nRun 'schemawatch run --help' for usage.\n",
    );
    expect((await runCli(["run", "--config", "--exit-at-end"])).stderr).toBe(
      "schemawatch run: flag --config needs a value (one starting with '-': --config=VALUE)\n" +
        "Run 'schemawatch run --help' for usage.\n",
    );
    expect((await runCli(["run", "--config", "x.yaml", "--exit-at-end=yes"])).stderr).toBe(
      "schemawatch run: flag --exit-at-end takes no value\nRun 'schemawatch run --help' for usage.\n",
    );
  });
});

describe("signals", () => {
  it("a command that does not stop cleanly gets no handler: the signal's default action ends it at once", async () => {
    const listeners = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const before = listeners();
    const quiet = { write: () => true };
    // No stopSignal given: main decides about the process's signals itself.
    const code = await main(["diff", "no-such-old.json", "no-such-new.json"], {
      stdout: quiet,
      stderr: quiet,
    });
    expect(code).toBe(2);
    expect(listeners()).toEqual(before);
    expect([diffCommand, matrixCommand, registryCommand].map((c) => c.stopsCleanly)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(runCommand.stopsCleanly).toBe(true);
  });
});
