import { readFile } from "node:fs/promises";
import { SchemawatchError, messageOf } from "../errors.js";

/** Environment variables as `process.env` holds them; passed in so tests never touch the real one. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads a file the config names (a TLS certificate, a secret). An unreadable one is a
 * `CONFIG_INVALID` error that names the key and the file, never the contents.
 */
export async function readConfigFile(path: string, key: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    // The cause is an fs error (ENOENT, EACCES) that names the path only, never the contents.
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `${key}: cannot read the ${what} file ${path}: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * A secret from an environment variable; a missing or empty one names the variable, the key and the
 * config file that names it (the variable is set where the process is started, far from the file).
 */
export function secretFromEnv(
  env: Env,
  name: string,
  key: string,
  what: string,
  configFile: string | undefined,
): string {
  const value = env[name];
  if (value === undefined || value === "") {
    const at = configFile === undefined ? key : `${configFile}: ${key}`;
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `${at}: the environment variable ${name} (the ${what}) is not set or empty`,
    );
  }
  return value;
}

/** A secret from a file (a mounted secret), without the trailing newline such files usually end with. */
export async function secretFromFile(path: string, key: string, what: string): Promise<string> {
  const value = (await readConfigFile(path, key, what)).replace(/[\r\n]+$/, "");
  if (value === "") throw new SchemawatchError("CONFIG_INVALID", `${key}: the ${what} file ${path} is empty`);
  return value;
}
