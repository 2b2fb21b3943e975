import { resolve } from "node:path";

import { loadConfig } from "../../config/load.js";
import type { SampleDocument } from "../../offline/documents.js";
import { askRegistry, subjectRule, type Direction } from "../../registry/compatibility.js";
import { connectRegistry } from "../../registry/connect.js";
import type { CommandContext } from "../command.js";
import { proposalOf, registryConfig, type Side, type SideFlags } from "./schema-sides.js";

/** The registry's verdict on NEW beside what the documents show, at the subject's level. */
export interface RegistryBeside {
  readonly level: string;
  readonly levelSource: string;
  readonly directions: readonly Direction[];
  readonly compatible?: boolean;
  readonly messages?: readonly string[];
  /** Why the registry gave no verdict (it could not resolve NEW's references, say). */
  readonly error?: string;
  readonly against: number | "latest";
  /** A document that passes the source version and fails the other, in a direction the level checks. */
  readonly breaking?: { readonly direction: Direction; readonly document: string };
  readonly disagreement: "registry-accepts-breaking" | null;
}

/**
 * `check --registry R --subject S --version V NEW`: also asks the registry whether it would register
 * NEW, and names a document that proves a break it would accept (one valid under the source version
 * and rejected by the other, in a direction the subject's level checks). Only where OLD is the
 * registered version and NEW the file: that is what registering NEW means.
 */
export async function registryBeside(
  flags: SideFlags,
  context: CommandContext,
  sides: readonly [Side, Side],
  oldDocs: readonly SampleDocument[],
  newDocs: readonly SampleDocument[],
): Promise<RegistryBeside | undefined> {
  const versions = flags.version ?? [];
  if (flags.registry === undefined || flags.subject === undefined || versions.length !== 1) return undefined;
  if ((flags["registry-side"] ?? "old") !== "old") return undefined;
  const [before, after] = sides;
  const config = flags.config ? await loadConfig(resolve(context.cwd, flags.config)) : undefined;
  const registry = registryConfig("check", flags.registry, config);
  const client = await connectRegistry(registry, context.env);
  try {
    const rule = await subjectRule(client, flags.subject);
    const text = versions[0] as string;
    const against = text === "latest" ? "latest" : Number(text);
    let answer: Awaited<ReturnType<typeof askRegistry>>;
    try {
      answer = await askRegistry(client, flags.subject, proposalOf(after), against);
    } catch (error) {
      // The documents decide check's verdict; a registry that cannot answer only leaves its column empty.
      const message = error instanceof Error ? error.message : String(error);
      return {
        level: rule.level,
        levelSource: rule.source,
        directions: rule.directions,
        against,
        error: message,
        disagreement: null,
      };
    }
    const proofs: Record<Direction, () => string | undefined> = {
      backward: () => oldDocs.find((d) => before.validate(d.json) && !after.validate(d.json))?.name,
      forward: () => newDocs.find((d) => after.validate(d.json) && !before.validate(d.json))?.name,
    };
    let breaking: RegistryBeside["breaking"];
    for (const direction of rule.directions) {
      const document = proofs[direction]();
      if (document !== undefined) {
        breaking = { direction, document };
        break;
      }
    }
    return {
      level: rule.level,
      levelSource: rule.source,
      directions: rule.directions,
      compatible: answer.compatible,
      messages: answer.messages,
      against,
      ...(breaking ? { breaking } : {}),
      disagreement: answer.compatible && breaking ? "registry-accepts-breaking" : null,
    };
  } finally {
    client.http.close();
  }
}

/** The lines `check` prints for it. */
export function besideText(beside: RegistryBeside): string {
  if (beside.error !== undefined)
    return `registry (${beside.level}, ${beside.levelSource}): no verdict: ${beside.error}\n`;
  const verdict = beside.compatible
    ? "compatible: it would register NEW"
    : "INCOMPATIBLE: it would reject NEW";
  const lines = [`registry (${beside.level}, ${beside.levelSource}): ${verdict}`];
  if (beside.disagreement && beside.breaking) {
    const { direction, document } = beside.breaking;
    lines.push(
      `DISAGREE: the registry would accept NEW, but ${document} proves it breaks ${direction} ` +
        `(valid under ${direction === "backward" ? "OLD, rejected by NEW" : "NEW, rejected by OLD"})`,
    );
  } else if (!beside.compatible && !beside.breaking) {
    lines.push("no document shows a break; `schemawatch diff --registry` looks for a witness or a proof");
  }
  return `${lines.join("\n")}\n`;
}
