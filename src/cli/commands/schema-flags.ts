import { SchemaCompiler } from "../../catalog/compiler.js";
import { parseDialect, type Dialect } from "../../catalog/dialect.js";

/** The flags every command that compiles schemas shares, in `parseCommandArgs` form. */
export const SCHEMA_FLAGS = {
  "default-dialect": { type: "string" },
  "assert-formats": { type: "boolean" },
} as const;

export const SCHEMA_FLAGS_HELP = `  --default-dialect D  the dialect of a schema without $schema: draft-07 (default; schema registries and
                       ajv read such a schema so), draft-04, draft-06, 2019-09 or 2020-12
  --assert-formats     make format, contentEncoding and contentMediaType assertions (drafts 04 to 07;
                       they are annotations otherwise, and always from 2019-09 on)`;

/**
 * The compiler the flags ask for; a config's settings (for `diff --config`) apply where no flag is
 * given.
 */
export function compilerFromFlags(
  command: string,
  values: {
    readonly "default-dialect"?: string | undefined;
    readonly "assert-formats"?: boolean | undefined;
  },
  fallback: { readonly defaultDialect?: Dialect; readonly assertFormats?: boolean } = {},
): SchemaCompiler {
  const flag = values["default-dialect"];
  const defaultDialect =
    flag === undefined
      ? fallback.defaultDialect
      : parseDialect(flag, `schemawatch ${command}: --default-dialect`);
  return new SchemaCompiler({
    ...(defaultDialect ? { defaultDialect } : {}),
    assertFormats: values["assert-formats"] ?? fallback.assertFormats ?? false,
  });
}
