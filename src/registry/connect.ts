import type { RegistryConfig } from "../config/types.js";
import { RegistryClient } from "./client.js";
import { RegistryHttp } from "./http.js";
import { registryCredentials, type Env } from "./secrets.js";

/**
 * A client for one configured registry: reads its secrets and TLS files (errors name the key, never
 * the secret) and sets up its connection. `client.http.close()` releases the sockets.
 */
export async function connectRegistry(config: RegistryConfig, env: Env): Promise<RegistryClient> {
  const credentials = await registryCredentials(config, env);
  const http = new RegistryHttp({
    name: config.name,
    url: config.url,
    timeout: config.timeout,
    retries: config.retries,
    credentials,
  });
  return new RegistryClient(http, config.url);
}
