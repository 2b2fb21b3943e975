import { loadSchemaFiles } from "../../catalog/load.js";
import { readDocuments } from "../../offline/documents.js";
import { buildMatrix, formatMatrixMarkdown, formatMatrixText } from "../../offline/matrix.js";
import { oneOf, parseCommandArgs, usageError } from "../args.js";
import type { Command } from "../command.js";
import { compilerFromFlags, SCHEMA_FLAGS, SCHEMA_FLAGS_HELP } from "./schema-flags.js";

// Flags that take a value: their value is never a schema or a document.
const VALUED = new Set(["--format", "--default-dialect"]);

const help = `Usage: schemawatch matrix --schema FILE... --doc FILE... [--format text|markdown|json]
                          [--default-dialect D] [--assert-formats]

Validates every document against every schema and prints the article's compatibility table: one row
per schema (labelled by its title, else its file name), one column per document, cells ok or FAIL.
Each schema is compiled on its own, so rows that share an $id still validate with their own schema;
a $ref may reach the other given files whose $id no other file shares.

Options:
  --schema FILE      a schema file; repeat for each row (or list several after one --schema)
  --doc FILE         a document; repeat for each column (or list several after one --doc)
  --format FORMAT    text (default), markdown, or json:
                     {"schemas": [...], "files": [...], "documents": [...], "valid": [[true, ...], ...]}
${SCHEMA_FLAGS_HELP}
  -h, --help         show this help

Exit status: 0 the table was printed; 2 bad input.

Example:
  schemawatch matrix --schema examples/article/schemas/v1.json examples/article/schemas/v2-*.json \\
    --doc examples/article/docs/matrix/*.json
`;

/** `--schema a b --doc c d` and `--schema a --schema b` both work: loose positionals join the last flag. */
function splitLists(args: readonly string[]): { schemas: string[]; docs: string[]; rest: string[] } {
  const schemas: string[] = [];
  const docs: string[] = [];
  const rest: string[] = [];
  let target: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--schema") target = schemas;
    else if (arg === "--doc") target = docs;
    else if (arg.startsWith("--schema=")) schemas.push(arg.slice(9));
    else if (arg.startsWith("--doc=")) docs.push(arg.slice(6));
    else if (arg.startsWith("-")) {
      target = undefined;
      rest.push(arg);
      if (VALUED.has(arg) && i + 1 < args.length) rest.push(args[++i]!);
    } else if (target) target.push(arg);
    else rest.push(arg);
  }
  return { schemas, docs, rest };
}

export const matrixCommand: Command = {
  name: "matrix",
  summary: "print the compatibility table of documents against schemas",
  help,
  async run(args, context) {
    const { schemas, docs, rest } = splitLists(args);
    const { values, positionals } = parseCommandArgs(
      "matrix",
      rest,
      { format: { type: "string" }, ...SCHEMA_FLAGS },
      ["schema", "doc"],
    );
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    const format = oneOf("matrix", "format", values.format, ["text", "markdown", "json"], "text");
    if (positionals.length > 0) throw usageError("matrix", `unexpected argument '${positionals[0]}'`);
    if (schemas.length === 0) throw usageError("matrix", "give at least one --schema FILE");
    if (docs.length === 0) throw usageError("matrix", "give at least one --doc FILE");
    const compiled = await loadSchemaFiles(schemas, compilerFromFlags("matrix", values));
    const documents = await readDocuments(docs);
    const matrix = buildMatrix(
      compiled.map(({ file, validate }) => ({
        label:
          typeof file.json === "object" && typeof file.json["title"] === "string"
            ? file.json["title"]
            : file.name,
        file: file.path,
        json: file.json,
        validate,
      })),
      documents,
    );
    if (format === "json") context.stdout.write(JSON.stringify(matrix, null, 2) + "\n");
    else if (format === "markdown") context.stdout.write(formatMatrixMarkdown(matrix));
    else context.stdout.write(formatMatrixText(matrix));
    return 0;
  },
};
