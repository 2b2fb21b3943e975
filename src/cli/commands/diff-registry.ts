import { resolve } from "node:path";

import type { SchemaCompiler } from "../../catalog/compiler.js";
import { loadConfig } from "../../config/load.js";
import type { AnyDiffResult } from "../../diff/formats.js";
import { judge, judgementText, type Against } from "../../diff/registry-verdict.js";
import { toJson } from "../../diff/render.js";
import { SchemawatchError } from "../../errors.js";
import { askRegistry, subjectRule } from "../../registry/compatibility.js";
import { connectRegistry } from "../../registry/connect.js";
import { usageError } from "../args.js";
import type { CommandContext } from "../command.js";
import {
  proposalOf,
  registeredSide,
  registryConfig,
  schemaFileSide,
  type Side,
  type SideFlags,
} from "./schema-sides.js";
import { refDocuments } from "./schema-refs.js";

/**
 * The live hints (`--monitor`) of the properties NEW removes, once each however many earlier
 * versions it is checked against (a `*_TRANSITIVE` level checks several).
 */
function liveLines(against: readonly Against[]): string {
  const hints = new Map<string, string>();
  for (const { result } of against)
    for (const change of result.changes) if (change.live) hints.set(change.live.field, change.live.text);
  return [...hints.values()].map((text) => `live traffic: ${text}\n`).join("");
}

/**
 * `diff --registry R --subject S [NEW]`: the registry's own compatibility check of NEW (by default the
 * latest registered version, checked against the one before it) beside schemawatch's evidence against
 * the versions the subject's level checks: the latest, or every earlier one for `*_TRANSITIVE`.
 * Exit 0 when the registry accepts NEW and schemawatch proves it compatible at that level, else 1.
 */
export async function diffAgainstRegistry(
  positionals: readonly string[],
  flags: SideFlags,
  compiler: SchemaCompiler,
  context: CommandContext,
  json: boolean,
  compare: (before: Side, after: Side) => AnyDiffResult,
): Promise<number> {
  const subject = flags.subject;
  if (flags.registry === undefined || subject === undefined)
    throw usageError("diff", "--registry needs --subject S");
  if (positionals.length > 1)
    throw usageError(
      "diff",
      "--registry R --subject S takes one schema file (NEW), or none for the latest version",
    );
  const config = flags.config ? await loadConfig(resolve(context.cwd, flags.config)) : undefined;
  const registry = registryConfig("diff", flags.registry, config);
  const client = await connectRegistry(registry, context.env);
  try {
    const rule = await subjectRule(client, subject);
    const numbers = await client.versions(subject);
    const file = positionals[0];
    const after =
      file !== undefined
        ? await schemaFileSide(file, compiler, await refDocuments(flags.ref, compiler.defaultDialect))
        : await registeredSide(client, registry.name, subject, numbers.at(-1) ?? "latest", compiler);
    const earlier = file !== undefined ? numbers : numbers.slice(0, -1);
    if (earlier.length === 0) {
      throw new SchemawatchError(
        file !== undefined ? "REGISTRY_NOT_FOUND" : "USAGE",
        file !== undefined
          ? `${registry.name}: subject '${subject}' has no registered version to compare ${file} with`
          : `schemawatch diff: subject '${subject}' has one version only; give NEW, the schema to register`,
      );
    }
    const checked = rule.transitive ? earlier : earlier.slice(-1);
    const against: Against[] = [];
    for (const version of checked) {
      const before = await registeredSide(client, registry.name, subject, version, compiler);
      against.push({ version, result: compare(before, after) });
    }
    const answer = await askRegistry(
      client,
      subject,
      proposalOf(after),
      file !== undefined ? "latest" : earlier.at(-1),
    );
    const judgement = judge(rule, against, answer);
    if (json) {
      const report = {
        subject,
        registry: registry.name,
        new: after.file.path,
        level: rule.level,
        levelSource: rule.source,
        directions: rule.directions,
        transitive: rule.transitive,
        registryVerdict: {
          compatible: answer.compatible,
          messages: answer.messages,
          against: answer.against,
        },
        schemawatch: {
          verdict: judgement.evidence,
          versions: against.map(({ version, result }) => ({
            version,
            ...toJson(
              result,
              { old: `${subject} v${version}`, new: after.file.path },
              {
                ok: rule.directions.every((d) => result[d] === "ok"),
              },
            ),
          })),
        },
        disagreement: judgement.disagreement ?? null,
        ...(judgement.breaks
          ? {
              witness: {
                version: judgement.breaks.version,
                direction: judgement.breaks.direction,
                kind: judgement.breaks.change.kind,
                path: judgement.breaks.change.path,
                document: judgement.breaks.witness,
              },
            }
          : {}),
        ...(judgement.proof
          ? {
              proof: judgement.proof.map(({ version, change }) => ({
                version,
                kind: change.kind,
                path: change.path,
                reason: change.reason,
              })),
            }
          : {}),
        ok: judgement.ok,
      };
      context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      const head = { subject, registry: registry.name, file: after.file.path };
      context.stdout.write(judgementText(head, rule, against, answer, judgement) + liveLines(against));
    }
    return judgement.ok ? 0 : 1;
  } finally {
    client.http.close();
  }
}
