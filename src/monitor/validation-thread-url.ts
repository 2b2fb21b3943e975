import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SchemawatchError } from "../errors.js";

/**
 * The validation thread's module (`validation-thread.ts`) for the pool: beside this one once built;
 * when this module runs from the TypeScript sources (the tests), the built one in dist/, which
 * `npm test` builds first.
 */
export function validationThreadUrl(): URL {
  const beside = new URL("./validation-thread.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const built = new URL("../../dist/monitor/validation-thread.js", import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new SchemawatchError(
    "CONFIG_INVALID",
    `workers: the validation worker's module is missing (${fileURLToPath(beside)}); run npm run build`,
  );
}
