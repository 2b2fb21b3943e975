import { loadConfig } from "../../config/load.js";
import type { Config, SubjectConfig, SubjectRegistryConfig } from "../../config/types.js";
import { SchemawatchError, messageOf } from "../../errors.js";
import type { Verdict } from "../../lifecycle/verdicts.js";
import { createLogger } from "../../log.js";
import { connectRegistry } from "../../registry/connect.js";
import {
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
import type { Report } from "../../report/model.js";
import { parseCommandArgs, usageError } from "../args.js";
import type { Command, CommandContext } from "../command.js";
import { getJson } from "../http-client.js";

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

Exit status: 0 planned, retired, or already retired; 1 refused: no monitor answered, or the version
is not drained (with the verdict's reasons); 2 bad input (unknown registry, subject or version).

Example:
  schemawatch prune --config schemawatch.yaml --registry main --subject orders-value --version 1 \\
    --url http://schemawatch:9464 --apply --actor alice
`;

type RegistrySubject = SubjectConfig & { registry: SubjectRegistryConfig };

/** What the monitor said: the verdict, or why there is none to act on. */
type Judgement = { verdict: Verdict; where: string } | { refused: string[] };

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
      const snapshot = await new SnapshotReader(values.registry, client).read(values.subject);
      const label = labelOf(snapshot, followed, version);
      const name = `${followed.name} ${label}`;
      const target = `${values.subject} version ${version} (${name}) in ${client.http.label}`;
      if (isRetired(snapshot.versions.find((v) => v.version === version)!)) {
        out(`${target} is already retired: nothing to do.`);
        return 0;
      }
      const retirement: Retirement = {
        subject: values.subject,
        version,
        actor: values.actor ?? context.env["USER"] ?? "unknown",
        at: new Date().toISOString(),
      };
      const plan = await planRetirement(client, retirement);
      out(`Plan to retire ${target}:`);
      for (const call of plan.calls) out(`  ${formatCall(call)}`);

      const judgement =
        values.url === undefined
          ? { refused: ["no monitor to ask: give --url of the running monitor"] }
          : await judge(values.url, followed, values.registry, values.subject, label);
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
        return 1;
      }
      await applyRetirement(client, plan);
      record(context, values.registry, retirement, plan, name, judgement);
      out(
        `Retired ${values.subject} version ${version} (${name}) by ${retirement.actor} at ${retirement.at}. ` +
          "The monitor's catalog shows it retired after its next registry poll.",
      );
      return 0;
    } finally {
      client.http.close();
    }
  },
};

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

/** The monitor's drained verdict on the version now; refused when there is no verdict to act on. */
async function judge(
  url: string,
  subject: RegistrySubject,
  registry: string,
  registrySubject: string,
  label: string,
): Promise<Judgement> {
  let report: Report;
  try {
    report = (await getJson(url, "/api/report")) as Report;
  } catch (error) {
    return { refused: [messageOf(error)] };
  }
  const entry = report.subjects.find((s) => s.subject === subject.name);
  if (!entry || entry.registry?.name !== registry || entry.registry.subject !== registrySubject) {
    return {
      refused: [
        `the monitor at ${url} does not follow '${registrySubject}' of registry '${registry}' as subject '${subject.name}': does it run with this config?`,
      ],
    };
  }
  const version = entry.versions.find((v) => v.version === label);
  if (!version) {
    return {
      refused: [
        `the monitor at ${url} has no version ${label} of ${subject.name} yet: wait for its next registry poll`,
      ],
    };
  }
  if (!version.verdict || version.verdict.kind !== "drained") {
    return {
      refused: [
        `${subject.name} ${label} is ${version.status} in the monitor: only a deprecated version can drain; deprecate it first (its registry state DEPRECATED, or status: deprecated in the config)`,
      ],
    };
  }
  return { verdict: version.verdict, where: url };
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
    },
    "registry version retired",
  );
}
