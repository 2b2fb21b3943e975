import type { CompatibilityAnswer, RegistryClient } from "./client.js";

export type Direction = "backward" | "forward";

/** What a subject's compatibility level makes the registry check on registration. */
export interface LevelRule {
  /** The level as the registry names it (BACKWARD, FULL_TRANSITIVE, NONE, …). */
  readonly level: string;
  /** Where it came from: the subject's own config, the global one, or the registries' default. */
  readonly source: "subject" | "global" | "default";
  /** The directions it checks: BACKWARD the backward one, FORWARD the forward one, FULL both. */
  readonly directions: readonly Direction[];
  /** Against every earlier version (`*_TRANSITIVE`), else against the latest only. */
  readonly transitive: boolean;
}

/** The level of a registry that sets none: Confluent's and Apicurio's ccompat default. */
const DEFAULT_LEVEL = "BACKWARD";

/** The rule of a level name; an unknown name checks nothing, as NONE. */
export function levelRule(level: string, source: LevelRule["source"]): LevelRule {
  const upper = level.toUpperCase();
  const base = upper.replace(/_TRANSITIVE$/, "");
  const directions: Direction[] =
    base === "FULL"
      ? ["backward", "forward"]
      : base === "BACKWARD"
        ? ["backward"]
        : base === "FORWARD"
          ? ["forward"]
          : [];
  return { level: upper, source, directions, transitive: upper.endsWith("_TRANSITIVE") };
}

/** The subject's compatibility level: its own, else the global one, else the registries' default. */
export async function subjectRule(client: RegistryClient, subject: string): Promise<LevelRule> {
  const found = await client.compatibility(subject);
  return found ? levelRule(found.level, found.source) : levelRule(DEFAULT_LEVEL, "default");
}

/** The registry's answer about one schema, with the version it was checked against. */
export interface RegistryVerdict extends CompatibilityAnswer {
  readonly against: number | "latest";
}

/** A schema as a registry takes it: its text and its format's `schemaType` (JSON, AVRO, PROTOBUF). */
export interface Proposal {
  readonly schema: string;
  readonly schemaType: string;
}

/**
 * Asks the registry whether it would register `proposal` under `subject`: the Confluent API's
 * `POST /compatibility/subjects/{S}/versions/{V}?verbose=true` (Apicurio's ccompat serves it), which
 * applies the subject's level. The schema goes as the registry stores it: its text, with its own
 * format's type (an Avro schema sent as JSON would be checked as a JSON Schema).
 */
export async function askRegistry(
  client: RegistryClient,
  subject: string,
  proposal: Proposal,
  against: number | "latest" = "latest",
): Promise<RegistryVerdict> {
  // NEW is sent with the references of the version it is checked against: the registry resolves a
  // `$ref` by reference name, and a proposed version usually keeps its predecessor's references.
  const { references } = await client.version(subject, against, { deleted: against !== "latest" });
  const answer = await client.checkCompatibility(subject, against, {
    schema: proposal.schema,
    schemaType: proposal.schemaType,
    references,
  });
  return { ...answer, against };
}
