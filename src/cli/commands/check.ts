import { loadConfig } from "../../config/load.js";
import type { Config } from "../../config/types.js";
import { DEFAULT_VALIDATION_TIMEOUT_MS } from "../../engine/budget.js";
import { DocumentBudget } from "../../offline/budget.js";
import { checkCompatibility, formatCheckLine, formatCheckSummary } from "../../offline/check.js";
import { readDocumentFolder } from "../../offline/documents.js";
import { oneOf, parseCommandArgs, usageError } from "../args.js";
import type { Command } from "../command.js";
import { besideText, registryBeside } from "./check-registry.js";
import { compilerFromFlags, SCHEMA_FLAGS, SCHEMA_FLAGS_HELP } from "./schema-flags.js";
import { REF_FLAGS, REF_FLAGS_HELP } from "./schema-refs.js";
import { REGISTRY_FLAGS, REGISTRY_FLAGS_HELP, schemaSides } from "./schema-sides.js";

const help = `Usage: schemawatch check OLD NEW --old-docs DIR --new-docs DIR [--strict] [--format text|json]
                         [--default-dialect D] [--assert-formats] [--ref FILE|DIR ...]
       schemawatch check --registry R --subject S --version V NEW --old-docs DIR --new-docs DIR
                         [--config FILE] [--registry-side old|new] ...

The article's compatibility check, for CI. Every document in --old-docs is validated against NEW
(backward: can an upgraded consumer still read what old producers send?) and every document in
--new-docs against OLD (forward: can an old consumer read what upgraded producers send?). The last
line sums the run up: how many documents each direction checked and how many failed. With --registry
(one registered version as OLD, NEW a file) it also asks the registry whether it would register NEW
and names a document proving a break it would accept, in the directions the subject's level checks.

Options:
  --old-docs DIR     documents valid under OLD (real shapes from production, personal data removed)
  --new-docs DIR     documents that NEW produces
  --strict           make forward failures fatal too (a public contract whose consumers you don't control)
  --format FORMAT    text (default) or json
  --config FILE      the config whose registries --registry NAME names (URL, auth, TLS), and whose
                     defaultDialect and assertFormats apply unless the flags below say otherwise
${REGISTRY_FLAGS_HELP}
${REF_FLAGS_HELP}
${SCHEMA_FLAGS_HELP}
  -h, --help         show this help

Exit status: 0 compatible; 1 a backward check failed (or, with --strict, a forward one);
2 bad input (unreadable file, a document that is not JSON, a schema that does not compile, a
documents folder without any .json file: a check of nothing would pass).

Example:
  schemawatch check examples/article/schemas/v1.json examples/article/schemas/v2.json \\
    --old-docs examples/article/docs/old --new-docs examples/article/docs/new
  schemawatch check --registry http://127.0.0.1:8081 --subject orders-value --version latest \\
    proposed.json --old-docs docs/old --new-docs docs/new
`;

export const checkCommand: Command = {
  name: "check",
  summary: "check two schema versions against sample documents in both directions (CI)",
  help,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("check", args, {
      "old-docs": { type: "string" },
      "new-docs": { type: "string" },
      strict: { type: "boolean", default: false },
      format: { type: "string" },
      config: { type: "string", short: "c" },
      subject: { type: "string" },
      ...REGISTRY_FLAGS,
      ...REF_FLAGS,
      ...SCHEMA_FLAGS,
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    const format = oneOf("check", "format", values.format, ["text", "json"], "text");
    if (!values["old-docs"]) throw usageError("check", "--old-docs DIR is required");
    if (!values["new-docs"]) throw usageError("check", "--new-docs DIR is required");
    if (values.subject !== undefined && values.registry === undefined)
      throw usageError("check", "--subject needs --registry R");
    const config: Partial<Config> = values.config ? await loadConfig(values.config) : {};
    const compiler = compilerFromFlags("check", values, config);
    // Each on its own: OLD and NEW often share an $id and must not stand in for each other.
    const [oldSchema, newSchema] = await schemaSides("check", positionals, values, compiler, context);
    const binary = [oldSchema, newSchema].find((s) => s.schema !== undefined);
    if (binary?.schema)
      throw usageError(
        "check",
        `${binary.file.path} is ${binary.schema.format}: check validates JSON documents; diff compares it`,
      );
    const oldDocs = await readDocumentFolder(values["old-docs"]);
    const newDocs = await readDocumentFolder(values["new-docs"]);
    const side = (s: typeof oldSchema) => ({ name: s.file.path, json: s.file.json, validate: s.validate });
    const beside = await registryBeside(values, context, [oldSchema, newSchema], oldDocs, newDocs);
    const result = checkCompatibility(
      side(oldSchema),
      side(newSchema),
      oldDocs,
      newDocs,
      values.strict,
      new DocumentBudget(config.validationTimeout ?? DEFAULT_VALIDATION_TIMEOUT_MS),
    );
    if (format === "json") {
      context.stdout.write(
        JSON.stringify(
          {
            old: oldSchema.file.path,
            new: newSchema.file.path,
            strict: result.strict,
            backwardChecked: result.backwardChecked,
            forwardChecked: result.forwardChecked,
            backwardFailures: result.backwardFailures,
            forwardFailures: result.forwardFailures,
            ok: result.exitCode === 0,
            summary: formatCheckSummary(result),
            results: result.lines,
            ...(beside ? { registry: beside } : {}),
          },
          null,
          2,
        ) + "\n",
      );
    } else {
      for (const line of result.lines) context.stdout.write(formatCheckLine(line) + "\n");
      context.stdout.write(formatCheckSummary(result) + "\n");
      if (beside) context.stdout.write(besideText(beside));
      if (result.backwardFailures > 0) {
        context.stderr.write(
          `${result.backwardFailures} document(s) valid under the old schema fail the new one: the change is not backward compatible (a major version, or keep producers on the old schema)\n`,
        );
      } else if (result.forwardFailures > 0 && values.strict) {
        context.stderr.write(
          `${result.forwardFailures} new document(s) fail the old schema: old consumers would reject them (--strict)\n`,
        );
      }
    }
    return result.exitCode;
  },
};
