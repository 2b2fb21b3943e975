import { loadConfig } from "../../config/load.js";
import type { Config } from "../../config/types.js";
import { SchemawatchError, isSchemawatchError, messageOf } from "../../errors.js";
import type { Verdict } from "../../lifecycle/verdicts.js";
import { createLogger } from "../../log.js";
import type { RegistryClient } from "../../registry/client.js";
import { connectRegistry } from "../../registry/connect.js";
import {
  RETIRED_AT_LABEL,
  RETIRED_BY_LABEL,
  applyRetirement,
  formatCall,
  planRetirement,
  type Retirement,
  type RetirementPlan,
} from "../../registry/retire.js";
import { SnapshotReader } from "../../registry/snapshot.js";
import { isRetired } from "../../registry/states.js";
import type { SubjectSnapshot } from "../../registry/types.js";
import { labelVersions } from "../../registry/versions.js";
import { parseCommandArgs, usageError } from "../args.js";
import type { Command, CommandContext } from "../command.js";
import { judge, type RegistrySubject } from "./prune-judge.js";

const help = `Usage: schemawatch prune --config FILE --registry NAME --subject S --version N
                         [--url URL] [--apply] [--actor NAME]

Retires a deprecated registry version once the live monitor says it is drained. Prints the plan:
the exact registry calls that retire it, never a hard delete:

  Apicurio Registry 3   its labels get schemawatch.retired-by and schemawatch.retired-at, then its
                        state becomes DISABLED (native API /apis/registry/v3); ENABLED undoes it
  other registries      a soft delete: DELETE /subjects/S/versions/N (never ?permanent=true)

With --apply it carries them out only if the monitor at --url judges the version drained now (its
/api/report verdict), and prints the verdict's evidence and who retired what, when. The monitor
counts the retirement in schemawatch_registry_versions_retired_total at its next registry poll,
and its catalog then shows the version retired.

Options:
  -c, --config FILE   the config with registries and subjects[].registry (as the monitor's)
  --registry NAME     a key of the config's registries
  --subject S         the registry subject, for example orders-value
  --version N         the registry's version number
  --url URL           the running monitor to ask (required with --apply)
  --apply             carry the plan out (without it nothing changes)
  --actor NAME        who retires it (default: $USER, else unknown)
  -h, --help          show this help

A retirement that stopped half-way (the labels written, the state call failed) is found on the
next run: it says so and plans the state call alone, keeping the labels of the run that wrote them.

Exit status: 0 planned, retired, or already retired; 1 refused: the version is not drained, the
monitor does not follow it, or there is no monitor to ask (no --url); 2 bad input (a config that
does not load, an unknown registry, subject or version); 3 the registry or the monitor failed (no
answer, an error status): nothing was changed, or, when the registry failed between its two calls,
what was sent is printed and the next run finishes the retirement.

Example:
  schemawatch prune --config schemawatch.yaml --registry main --subject orders-value --version 1 \\
    --url http://schemawatch:9464 --apply --actor alice
`;

export const pruneCommand: Command = {
  name: "prune",
  summary: "retire a drained deprecated version in the schema registry (after asking the monitor)",
  help,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("prune", args, {
      config: { type: "string", short: "c" },
      registry: { type: "string" },
      subject: { type: "string" },
      version: { type: "string" },
      url: { type: "string" },
      apply: { type: "boolean" },
      actor: { type: "string" },
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    if (positionals.length > 0) throw usageError("prune", `unexpected argument '${positionals[0]}'`);
    if (!values.config) throw usageError("prune", "--config FILE is required");
    if (!values.registry) throw usageError("prune", "--registry NAME is required");
    if (!values.subject) throw usageError("prune", "--subject S is required");
    if (!values.version || !/^[1-9]\d*$/.test(values.version)) {
      throw usageError("prune", "--version N is required: the registry's version number, for example 3");
    }
    const version = Number(values.version);
    const config = await loadConfig(values.config);
    const followed = followingSubject(config, values.registry, values.subject);
    const out = (line: string) => context.stdout.write(`${line}\n`);

    const client = await connectRegistry(config.registries[values.registry]!, context.env);
    try {
      return await prune(client, values, followed, version, context, out);
    } catch (error) {
      // An outage is not a typo: automation retries the one and fixes the other.
      if (!isSchemawatchError(error) || !error.code.startsWith("REGISTRY_")) throw error;
      context.stderr.write(`schemawatch prune: the registry failed: ${error.message}; nothing was changed\n`);
      return FAILED;
    } finally {
      client.http.close();
    }
  },
};

/** Exit status when the registry or the monitor failed, apart from a refusal (1) and bad input (2). */
const FAILED = 3;

interface PruneValues {
  readonly registry?: string;
  readonly subject?: string;
  readonly url?: string;
  readonly apply?: boolean;
  readonly actor?: string;
}

async function prune(
  client: RegistryClient,
  values: PruneValues,
  followed: RegistrySubject,
  version: number,
  context: CommandContext,
  out: (line: string) => void,
): Promise<number> {
  const registry = values.registry!;
  const subject = values.subject!;
  const snapshot = await new SnapshotReader(registry, client).read(subject);
  const label = labelOf(snapshot, followed, version);
  const name = `${followed.name} ${label}`;
  const target = `${subject} version ${version} (${name}) in ${client.http.label}`;
  const registered = snapshot.versions.find((v) => v.version === version)!;
  if (isRetired(registered)) {
    out(`${target} is already retired: nothing to do.`);
    return 0;
  }
  const retirement: Retirement = {
    subject,
    version,
    actor: values.actor ?? context.env["USER"] ?? "unknown",
    at: new Date().toISOString(),
  };
  const plan = await planRetirement(client, retirement);
  if (plan.resumed) {
    out(
      `${target} is labelled retired by ${plan.resumed.by} at ${plan.resumed.at}, but its state is still ${registered.state}: ` +
        "a retirement that stopped half-way. The plan finishes it.",
    );
  }
  out(`Plan to retire ${target}:`);
  for (const call of plan.calls) out(`  ${formatCall(call)}`);

  const judgement =
    values.url === undefined
      ? { refused: ["no monitor to ask: give --url of the running monitor"] }
      : await judge(values.url, followed, registry, subject, label);
  if ("failed" in judgement) {
    out(`  - ${judgement.failed}`);
    out(`The monitor at ${values.url} could not be asked; nothing was changed.`);
    return FAILED;
  }
  if ("verdict" in judgement) {
    const { verdict } = judgement;
    out(`The monitor at ${judgement.where} says ${name} is ${verdict.yes ? "" : "not "}drained.`);
    out(`  evidence: ${JSON.stringify(verdict.evidence)}`);
    for (const reason of verdict.reasons) out(`  - ${reason}`);
  }
  if (!values.apply) {
    if ("refused" in judgement) for (const reason of judgement.refused) out(`  - ${reason}`);
    out("Dry run: nothing was changed; add --apply to carry the plan out.");
    return 0;
  }
  if (!("verdict" in judgement) || !judgement.verdict.yes) {
    out(`Refused: ${name} is not known to be drained; nothing was changed.`);
    if ("refused" in judgement) for (const reason of judgement.refused) out(`  - ${reason}`);
    if (plan.resumed) {
      out(
        `  (its labels ${RETIRED_BY_LABEL} and ${RETIRED_AT_LABEL} still say it was retired: prune again once it is drained, or remove them)`,
      );
    }
    return 1;
  }
  const applied = await applyRetirement(client, plan);
  if (!applied.ok) {
    const sent = applied.done.map((call) => `  sent: ${formatCall(call)}\n`).join("");
    const half =
      applied.done.length > 0
        ? `${subject} version ${version} is labelled retired but still ${registered.state}: run the same prune again to finish the retirement`
        : "nothing was changed";
    context.stderr.write(
      `schemawatch prune: the registry failed at ${applied.failed.method} ${applied.failed.url}: ${messageOf(applied.error)}\n${sent}schemawatch prune: ${half}\n`,
    );
    return FAILED;
  }
  record(context, registry, retirement, plan, name, judgement);
  const by = plan.resumed
    ? `${plan.resumed.by} at ${plan.resumed.at}`
    : `${retirement.actor} at ${retirement.at}`;
  out(
    `Retired ${subject} version ${version} (${name}) by ${by}` +
      `${plan.resumed ? ` (finished by ${retirement.actor} at ${retirement.at})` : ""}. ` +
      "The monitor's catalog shows it retired after its next registry poll.",
  );
  return 0;
}

/** The config subject that takes its versions from `registry`'s `subject`; exit 2 when none does. */
function followingSubject(config: Config, registry: string, subject: string): RegistrySubject {
  if (config.registries[registry] === undefined) {
    const known = Object.keys(config.registries);
    throw new SchemawatchError(
      "USAGE",
      `schemawatch prune: no registry '${registry}' in the config's registries (${known.length > 0 ? `known: ${known.join(", ")}` : "none is defined"})`,
    );
  }
  const found = config.subjects.find(
    (s): s is RegistrySubject => s.registry?.name === registry && s.registry.subject === subject,
  );
  if (found) return found;
  const followed = config.subjects
    .filter((s) => s.registry?.name === registry)
    .map((s) => s.registry!.subject);
  throw new SchemawatchError(
    "SUBJECT_UNKNOWN",
    `schemawatch prune: no subject of the config follows '${subject}' of registry '${registry}' (followed: ${followed.join(", ") || "none"}); the monitor judges only what its config follows`,
  );
}

/** The version's label in the catalog (`3`, or its semver); exit 2 when the registry lacks it. */
function labelOf(snapshot: SubjectSnapshot, subject: RegistrySubject, version: number): string {
  const numbers = snapshot.versions.map((v) => v.version);
  if (numbers.length === 0 && snapshot.skipped.length === 0) {
    throw new SchemawatchError(
      "SUBJECT_UNKNOWN",
      `schemawatch prune: registry '${snapshot.registry}' has no subject '${snapshot.subject}' (or no version in it)`,
    );
  }
  const skipped = snapshot.skipped.find((s) => s.version === version);
  if (skipped) {
    throw new SchemawatchError(
      "VERSION_UNKNOWN",
      `schemawatch prune: ${snapshot.subject} version ${version} is not in the catalog, so no verdict covers it: ${skipped.message}`,
    );
  }
  if (!numbers.includes(version)) {
    throw new SchemawatchError(
      "VERSION_UNKNOWN",
      `schemawatch prune: ${snapshot.subject} has no version ${version} (known: ${numbers.join(", ")})`,
    );
  }
  const labelled = labelVersions(snapshot.versions, subject.registry).labelled;
  const label = labelled.find((l) => l.version.version === version)?.label;
  if (label === undefined) {
    throw new SchemawatchError(
      "VERSION_UNKNOWN",
      `schemawatch prune: ${snapshot.subject} version ${version} has no label in the catalog (labels: ${subject.registry.labels}); give it one: registry.versions."${version}".label`,
    );
  }
  return label;
}

/** The line that says what was retired, by whom and when, with the evidence it rested on. */
function record(
  context: CommandContext,
  registry: string,
  retirement: Retirement,
  plan: RetirementPlan,
  name: string,
  judgement: { verdict: Verdict; where: string },
): void {
  const logger = createLogger("info", { write: (line: string) => void context.stderr.write(line) });
  logger.info(
    {
      registry,
      subject: retirement.subject,
      version: retirement.version,
      catalogVersion: name,
      actor: retirement.actor,
      at: retirement.at,
      api: plan.kind,
      calls: plan.calls.map(formatCall),
      monitor: judgement.where,
      evidence: judgement.verdict.evidence,
      ...(plan.resumed ? { resumed: plan.resumed } : {}),
    },
    "registry version retired",
  );
}
