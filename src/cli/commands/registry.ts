import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

import { stringify } from "yaml";

import { loadConfig } from "../../config/load.js";
import type { SubjectConfig, SubjectRegistryConfig } from "../../config/types.js";
import { SchemawatchError, messageOf } from "../../errors.js";
import { connectRegistry } from "../../registry/connect.js";
import { exportSubject, type SubjectExport } from "../../registry/export.js";
import { SnapshotReader } from "../../registry/snapshot.js";
import { parseCommandArgs, usageError } from "../args.js";
import type { Command } from "../command.js";

const SNIPPET = "schemawatch-snippet.yaml";

const help = `Usage: schemawatch registry export --config FILE --out DIR [--subject NAME]

Reads every subject of the config that takes its versions from a schema registry (subjects[].registry)
and writes its registered versions as schema files, for those who keep a folder catalog in git:

  DIR/SUBJECT/LABEL.json                       one file per version, the schema as registered
  DIR/SUBJECT/references/REFSUBJECT-N.json     every schema those versions reference
  DIR/${SNIPPET}                  the subjects (status, file and registry id of each version)
                                               and the shared folders, to merge into a config

Labels follow the subject's registry.labels rule (docs/registry.md). Versions that are not JSON
Schema, or that labels: semver cannot label, are left out and listed on stderr and in the snippet.
Secrets are read from the environment or files as the config says, as for 'run'.

Options:
  -c, --config FILE   the config with registries and subjects[].registry
  -o, --out DIR       where to write; files of earlier exports are overwritten
  --subject NAME      export only this subject
  -h, --help          show this help

Exit status: 0 written; 2 bad input (unreadable config, no registry subject, a registry that does
not answer or refuses the credentials).

Example:
  schemawatch registry export --config schemawatch.yaml --out catalog
`;

type RegistrySubject = SubjectConfig & { registry: SubjectRegistryConfig };

export const registryCommand: Command = {
  name: "registry",
  summary: "export the versions of registry subjects as schema files with a config snippet",
  help,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("registry", args, {
      config: { type: "string", short: "c" },
      out: { type: "string", short: "o" },
      subject: { type: "string" },
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    const [action, ...rest] = positionals;
    if (action !== "export") {
      throw usageError("registry", action === undefined ? "expected 'export'" : `unknown action '${action}'`);
    }
    if (rest.length > 0) throw usageError("registry", `unexpected argument '${rest[0]}'`);
    if (!values.config) throw usageError("registry", "--config FILE is required");
    if (!values.out) throw usageError("registry", "--out DIR is required");

    const config = await loadConfig(resolve(context.cwd, values.config));
    const subjects = config.subjects.filter(
      (s): s is RegistrySubject =>
        s.registry !== undefined && (values.subject === undefined || s.name === values.subject),
    );
    if (subjects.length === 0) {
      const what =
        values.subject === undefined
          ? "no subject with a registry"
          : `no subject '${values.subject}' with a registry`;
      throw new SchemawatchError("SUBJECT_UNKNOWN", `${config.path}: ${what} (subjects[].registry)`);
    }
    const out = resolve(context.cwd, values.out);
    const exports: SubjectExport[] = [];
    const readers = new Map<string, SnapshotReader>();
    try {
      for (const subject of subjects) {
        const name = subject.registry.name;
        let reader = readers.get(name);
        if (!reader) {
          reader = new SnapshotReader(name, await connectRegistry(config.registries[name]!, context.env));
          readers.set(name, reader);
        }
        const snapshot = await reader.read(subject.registry.subject);
        exports.push(await exportSubject(subject, snapshot, out));
      }
    } finally {
      for (const reader of readers.values()) reader.client.http.close();
    }

    const notes = exports.flatMap((e) => e.notes);
    const shared = exports.flatMap((e) => (e.shared !== undefined ? [e.shared] : []));
    const header = [
      `# Written by schemawatch registry export from ${config.path}.`,
      "# Merge into a config: schemas and shared are relative to this folder.",
      ...notes.map((note) => `# note: ${note}`),
    ];
    const body = stringify({
      ...(shared.length > 0 ? { shared } : {}),
      subjects: exports.map((e) => e.entry),
    });
    const snippet = join(out, SNIPPET);
    try {
      await writeFile(snippet, `${header.join("\n")}\n${body}`);
    } catch (error) {
      throw new SchemawatchError("FILE_UNREADABLE", `${snippet}: cannot write: ${messageOf(error)}`, {
        cause: error,
      });
    }
    for (const note of notes) context.stderr.write(`note: ${note}\n`);
    for (const e of exports) {
      const versions = Object.keys(e.entry["versions"] as object).length;
      context.stdout.write(
        `${e.subject}: ${versions} version${versions === 1 ? "" : "s"}, ${e.files.length} files\n`,
      );
    }
    context.stdout.write(`wrote ${snippet}\n`);
    return 0;
  },
};
