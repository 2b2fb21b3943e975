import type { DiffResult } from "../../diff/index.js";
import { withLiveHints } from "../../diff/live.js";
import { SchemawatchError, isSchemawatchError } from "../../errors.js";
import type { FieldVerdict } from "../../lifecycle/field-verdicts.js";
import type { CommandContext } from "../command.js";
import { getJson } from "../http-client.js";

/** Exit status when the monitor could not be asked, apart from a release that fails (1) and bad input (2). */
export const MONITOR_FAILED = 3;

/** What `diff --monitor URL` reads of the monitor's /api/status: each subject's field verdicts. */
export interface LiveStatus {
  readonly url: string;
  readonly fields: Readonly<Record<string, readonly FieldVerdict[]>>;
  readonly subjects: readonly { subject: string; registry?: { subject?: string } | null }[];
}

/** The monitor's field verdicts; a coded HTTP_FAILED error when it does not answer with a status. */
export async function askMonitor(url: string): Promise<LiveStatus> {
  const status = (await getJson(url, "/api/status")) as Partial<LiveStatus> | null;
  if (
    typeof status !== "object" ||
    status === null ||
    typeof status.fields !== "object" ||
    status.fields === null ||
    !Array.isArray(status.subjects)
  )
    throw new SchemawatchError(
      "HTTP_FAILED",
      `${new URL("/api/status", url).href}: the answer has no field verdicts: is it a schemawatch monitor of this version?`,
    );
  return { url, fields: status.fields, subjects: status.subjects };
}

/**
 * The field verdicts of the monitor's subject `name`: its subject of that name, or the one that
 * follows the registry subject `name`; a coded error naming the subjects it knows otherwise.
 */
export function verdictsOf(live: LiveStatus, name: string): readonly FieldVerdict[] {
  const subject =
    live.subjects.find((s) => s.subject === name) ?? live.subjects.find((s) => s.registry?.subject === name);
  if (!subject)
    throw new SchemawatchError(
      "SUBJECT_UNKNOWN",
      `the monitor at ${live.url} has no subject '${name}' (known: ${live.subjects.map((s) => s.subject).join(", ") || "none"}): does it run with this config?`,
    );
  return live.fields[subject.subject] ?? [];
}

/** The result with live hints when a monitor was asked; unchanged otherwise. */
export function hinted(
  result: DiffResult,
  live: LiveStatus | undefined,
  subject: string | undefined,
): DiffResult {
  if (live === undefined || subject === undefined) return result;
  return withLiveHints(result, verdictsOf(live, subject));
}

/**
 * Asks the monitor before anything is compared, so that an outage prints no half result: said on
 * standard error, with its own exit status (automation retries an outage and fixes a typo).
 */
export async function monitorOrExit(
  url: string | undefined,
  context: CommandContext,
): Promise<LiveStatus | undefined | number> {
  if (url === undefined) return undefined;
  try {
    return await askMonitor(url);
  } catch (error) {
    if (!isSchemawatchError(error) || error.code !== "HTTP_FAILED") throw error;
    context.stderr.write(`schemawatch diff: the monitor failed: ${error.message}; nothing was compared\n`);
    return MONITOR_FAILED;
  }
}
