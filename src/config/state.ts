import { resolve } from "node:path";
import { SchemawatchError } from "../errors.js";
import { DEFAULTS } from "./defaults.js";
import { formatDuration, parseDuration } from "./duration.js";
import type { Where } from "./registries.js";
import type { StateConfig, SubjectConfig } from "./types.js";

/** The `state` block as the file writes it. */
export interface RawState {
  file?: string;
  topic?: string;
  forgetReplicasAfter?: string;
}

/**
 * Where the evidence is kept, and after how long without a heartbeat a replica's records in the state
 * topic are deleted (ms): by default the longer of 14 days and the longest window of any subject. A
 * time shorter than a subject's drain or ready window is refused: a replica's evidence would be
 * deleted while a verdict still reads it.
 */
export function stateConfig(
  raw: RawState | undefined,
  base: string,
  subjects: readonly SubjectConfig[],
  where: Where,
): StateConfig {
  const windows = subjects.flatMap((s) => [
    { subject: s.name, what: "drain window", seconds: s.drainWindow },
    { subject: s.name, what: "ready window", seconds: s.readyWindow },
  ]);
  const longest = Math.max(0, ...windows.map((w) => w.seconds));
  let forget = Math.max(parseDuration(DEFAULTS.forgetReplicasAfter), longest);
  if (raw?.forgetReplicasAfter !== undefined) {
    forget = parseDuration(raw.forgetReplicasAfter);
    const longer = windows.find((w) => w.seconds === longest);
    if (longer && forget < longest)
      throw new SchemawatchError(
        "CONFIG_INVALID",
        `${where(["state", "forgetReplicasAfter"])}: ${raw.forgetReplicasAfter} is shorter than the ${longer.what} of subject ${longer.subject} (${formatDuration(longest)}): a gone replica's evidence would be deleted while a verdict still reads it; give at least ${formatDuration(longest)}`,
      );
  }
  const forgetReplicasAfter = forget * 1000;
  // The evidence survives restarts by default: a file beside the config unless told otherwise.
  return raw?.topic
    ? {
        topic: raw.topic,
        ...(raw.file ? { file: resolve(base, raw.file) } : {}),
        forgetReplicasAfter,
      }
    : { file: resolve(base, raw?.file ?? DEFAULTS.stateFile), forgetReplicasAfter };
}
