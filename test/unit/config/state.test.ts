import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/load.js";

// `state`: where the evidence is kept, and `forgetReplicasAfter`, when a gone replica's records in the
// state topic are deleted: by default 14 days or the longest window, never shorter than a window.

const config = (state: string, windows = "") =>
  parseConfig(
    `${state}subjects:\n  - name: event\n    topics: [events]\n    schemas: ./schemas\n${windows}`,
    "/etc/sw/config.yaml",
  );

const DAY = 86_400_000;

describe("config state", () => {
  it("forgets replicas after 14 days by default, or after the longest window when that is longer", () => {
    expect(config("").state).toEqual({
      file: "/etc/sw/.schemawatch-state.json",
      forgetReplicasAfter: 14 * DAY,
    });
    expect(config("state:\n  topic: sw-state\n", "    readyWindow: 30d\n").state).toEqual({
      topic: "sw-state",
      forgetReplicasAfter: 30 * DAY,
    });
    expect(config("state:\n  topic: sw-state\n  forgetReplicasAfter: 8d\n").state).toEqual({
      topic: "sw-state",
      forgetReplicasAfter: 8 * DAY,
    });
  });

  it("refuses a time shorter than a subject's window, naming it, and what is not a duration", () => {
    expect(() => config("state:\n  topic: sw-state\n  forgetReplicasAfter: 3d\n")).toThrow(
      "config.yaml:3: state.forgetReplicasAfter: 3d is shorter than the drain window of subject event (7d): a gone replica's evidence would be deleted while a verdict still reads it; give at least 7d",
    );
    expect(() => config("state:\n  forgetReplicasAfter: soon\n")).toThrow(/state\.forgetReplicasAfter/);
  });
});
