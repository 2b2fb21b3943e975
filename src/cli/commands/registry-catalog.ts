import type { SchemaCompiler } from "../../catalog/compiler.js";
import type { Catalog } from "../../catalog/types.js";
import type { Config } from "../../config/types.js";
import { readCatalog } from "../../registry/read-catalog.js";
import type { CommandContext } from "../command.js";

/** A command's catalog of `config`, registry subjects read once; what it left out goes to stderr. */
export async function readRegistryCatalog(
  config: Config,
  compiler: SchemaCompiler | undefined,
  context: CommandContext,
): Promise<Catalog> {
  const { catalog, notes } = await readCatalog(config, context.env, compiler);
  for (const note of notes) context.stderr.write(`note: ${note.message}\n`);
  return catalog;
}
