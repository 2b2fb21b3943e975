import type { ConnectionOptions } from "node:tls";

import type { RegistryConfig } from "../config/types.js";
import {
  readConfigFile,
  secretFromEnv as fromEnv,
  secretFromFile as fromFile,
  type Env,
} from "../config/secrets.js";
import { SchemawatchError } from "../errors.js";

export type { Env } from "../config/secrets.js";

/** What a request to one registry needs besides its path: the header value and TLS material. */
export interface RegistryCredentials {
  /** The `Authorization` header value, or undefined without auth. */
  readonly authorization: string | undefined;
  readonly tls: ConnectionOptions | undefined;
  /** Every secret value, so that error messages can be scrubbed of them. */
  readonly secrets: readonly string[];
}

/**
 * Reads a registry's secrets (basic auth user and password, or a bearer token, from environment
 * variables or files, as for Kafka's SASL) and TLS files. A missing variable or unreadable file is a
 * `CONFIG_INVALID` error that names the variable or file, never the secret. The config loader has
 * already checked which keys go together.
 */
export async function registryCredentials(config: RegistryConfig, env: Env): Promise<RegistryCredentials> {
  const key = `registries.${config.name}.auth`;
  const auth = config.auth;
  let authorization: string | undefined;
  const secrets: string[] = [];
  if (auth?.type === "basic") {
    const username =
      auth.username ??
      fromEnv(env, auth.usernameEnv!, `${key}.usernameEnv`, "registry user name", auth.configFile);
    const password =
      auth.passwordEnv !== undefined
        ? fromEnv(env, auth.passwordEnv, `${key}.passwordEnv`, "registry password", auth.configFile)
        : await fromFile(auth.passwordFile!, `${key}.passwordFile`, "registry password");
    if (username.includes(":")) {
      // Basic auth joins user and password with the first colon; a colon in the user name breaks it.
      throw new SchemawatchError(
        "CONFIG_INVALID",
        `${key}: the user name contains ':', which basic auth cannot carry`,
      );
    }
    const encoded = Buffer.from(`${username}:${password}`, "utf8").toString("base64");
    authorization = `Basic ${encoded}`;
    secrets.push(password, encoded);
  } else if (auth?.type === "bearer") {
    const token =
      auth.tokenEnv !== undefined
        ? fromEnv(env, auth.tokenEnv, `${key}.tokenEnv`, "registry token", auth.configFile)
        : await fromFile(auth.tokenFile!, `${key}.tokenFile`, "registry token");
    authorization = `Bearer ${token}`;
    secrets.push(token);
  }
  return { authorization, tls: config.tls ? await tlsOptions(config) : undefined, secrets };
}

async function tlsOptions(config: RegistryConfig): Promise<ConnectionOptions> {
  const tls = config.tls!;
  const key = `registries.${config.name}.tls`;
  const [ca, cert, privateKey] = await Promise.all([
    tls.ca !== undefined ? readConfigFile(tls.ca, `${key}.ca`, "CA certificate") : undefined,
    tls.cert !== undefined ? readConfigFile(tls.cert, `${key}.cert`, "client certificate") : undefined,
    tls.key !== undefined ? readConfigFile(tls.key, `${key}.key`, "private key") : undefined,
  ]);
  return {
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(ca !== undefined ? { ca: [ca] } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(privateKey !== undefined ? { key: privateKey } : {}),
  };
}

/** `text` with every secret replaced by `[redacted]`: registries may echo a header in an error body. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== "") out = out.split(secret).join("[redacted]");
  }
  return out;
}
