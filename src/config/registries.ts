import { dirname, resolve } from "node:path";
import { tryParseVersion, compareVersions, type Version } from "../catalog/version.js";
import { SchemawatchError } from "../errors.js";
import { DEFAULTS } from "./defaults.js";
import { parseDuration } from "./duration.js";
import type {
  RegistryAuthConfig,
  RegistryConfig,
  RegistryTlsConfig,
  RegistryVersionConfig,
  SubjectRegistryConfig,
  LabelRule,
} from "./types.js";

/** `file:LINE: key` for a key path of the config, for messages that name where the problem is. */
export type Where = (segments: readonly (string | number)[]) => string;

export interface RawRegistry {
  url: string;
  auth?: RegistryAuthConfig;
  tls?: Partial<RegistryTlsConfig>;
  pollInterval?: string;
  timeout?: string;
  retries?: number;
  lookupsInFlight?: number;
  lookupsPerSecond?: number;
  lookupCache?: number;
  lookupWait?: string;
  lookupWaitRecords?: number;
}

export interface RawSubjectRegistry {
  name: string;
  subject?: string;
  labels?: LabelRule;
  versions?: Record<string, RegistryVersionConfig>;
}

function invalid(message: string): SchemawatchError {
  return new SchemawatchError("CONFIG_INVALID", message);
}

/** The lookup bounds of a registry given without a config (a `--registry URL`): the defaults. */
export function defaultLookups(): Pick<
  RegistryConfig,
  "lookupsInFlight" | "lookupsPerSecond" | "lookupCache" | "lookupWait" | "lookupWaitRecords"
> {
  const d = DEFAULTS.registry;
  return {
    lookupsInFlight: d.lookupsInFlight,
    lookupsPerSecond: d.lookupsPerSecond,
    lookupCache: d.lookupCache,
    lookupWait: parseDuration(d.lookupWait) * 1000,
    lookupWaitRecords: d.lookupWaitRecords,
  };
}

/** Defaults and cross-key rules of `registries`; paths resolve against the config's folder `base`. */
export function registriesFrom(
  raw: Record<string, RawRegistry> | undefined,
  path: string,
  where: Where,
): Record<string, RegistryConfig> {
  const base = dirname(path);
  const out: Record<string, RegistryConfig> = {};
  for (const [name, registry] of Object.entries(raw ?? {})) {
    const at = (...keys: string[]) => where(["registries", name, ...keys]);
    const url = checkUrl(registry.url, at("url"));
    if (registry.tls && url.protocol !== "https:") {
      throw invalid(`${at("tls")}: TLS settings need an https:// url, and the url is ${url.protocol}//`);
    }
    if (registry.tls && (registry.tls.cert === undefined) !== (registry.tls.key === undefined)) {
      throw invalid(
        `${at("tls")}: cert and key go together (mutual TLS needs both the certificate and its private key)`,
      );
    }
    if (registry.auth) checkAuth(registry.auth, at);
    const tls = registry.tls;
    const auth = registry.auth;
    out[name] = {
      name,
      url: url.href.replace(/\/+$/, ""),
      ...(auth
        ? {
            auth: {
              ...auth,
              configFile: path,
              ...(auth.passwordFile ? { passwordFile: resolve(base, auth.passwordFile) } : {}),
              ...(auth.tokenFile ? { tokenFile: resolve(base, auth.tokenFile) } : {}),
            },
          }
        : {}),
      ...(tls
        ? {
            tls: {
              rejectUnauthorized: tls.rejectUnauthorized ?? DEFAULTS.registry.rejectUnauthorized,
              ...(tls.ca ? { ca: resolve(base, tls.ca) } : {}),
              ...(tls.cert ? { cert: resolve(base, tls.cert) } : {}),
              ...(tls.key ? { key: resolve(base, tls.key) } : {}),
            },
          }
        : {}),
      pollInterval: parseDuration(registry.pollInterval ?? DEFAULTS.registry.pollInterval) * 1000,
      timeout: parseDuration(registry.timeout ?? DEFAULTS.registry.timeout) * 1000,
      retries: registry.retries ?? DEFAULTS.registry.retries,
      ...defaultLookups(),
      ...(registry.lookupsInFlight !== undefined ? { lookupsInFlight: registry.lookupsInFlight } : {}),
      ...(registry.lookupsPerSecond !== undefined ? { lookupsPerSecond: registry.lookupsPerSecond } : {}),
      ...(registry.lookupCache !== undefined ? { lookupCache: registry.lookupCache } : {}),
      ...(registry.lookupWait !== undefined ? { lookupWait: parseDuration(registry.lookupWait) * 1000 } : {}),
      ...(registry.lookupWaitRecords !== undefined ? { lookupWaitRecords: registry.lookupWaitRecords } : {}),
    };
    if (out[name].pollInterval < 1000) {
      throw invalid(`${at("pollInterval")}: at least 1s (every poll costs a few requests per subject)`);
    }
    if (out[name].timeout < 100) throw invalid(`${at("timeout")}: at least 100ms`);
    if (out[name].lookupWait > 20_000) {
      // Without validation workers the consumer waits in its batch, heartbeats included: well below
      // the 30 s session timeout, or the group would drop it.
      throw invalid(
        `${at("lookupWait")}: at most 20s (a record waiting for a lookup holds back its partition for that long)`,
      );
    }
  }
  return out;
}

function checkUrl(text: string, at: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`${at}: '${text}' is not a URL`);
  }
  if (url.username !== "" || url.password !== "") {
    // The URL is logged and shown in errors; a password in it would leak. The text is not repeated.
    throw invalid(`${at}: put credentials under auth (usernameEnv, passwordFile …), not in the URL`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw invalid(`${at}: the base URL takes no query or fragment`);
  }
  return url;
}

const BASIC_KEYS = ["username", "usernameEnv", "passwordEnv", "passwordFile"] as const;
const BEARER_KEYS = ["tokenEnv", "tokenFile"] as const;

type AuthKey = (typeof BASIC_KEYS)[number] | (typeof BEARER_KEYS)[number];

function checkAuth(auth: RegistryAuthConfig, at: (...keys: string[]) => string): void {
  const foreign = auth.type === "basic" ? BEARER_KEYS : BASIC_KEYS;
  for (const key of foreign) {
    if (auth[key] !== undefined) throw invalid(`${at("auth", key)}: not used with type ${auth.type}`);
  }
  const exactlyOne = (a: AuthKey, b: AuthKey) => {
    if (auth[a] !== undefined && auth[b] !== undefined) {
      throw invalid(`${at("auth", b)}: set only one of ${a} and ${b}`);
    }
    if (auth[a] === undefined && auth[b] === undefined) {
      throw invalid(`${at("auth")}: ${a} or ${b} is required with type ${auth.type}`);
    }
  };
  if (auth.type === "basic") {
    exactlyOne("username", "usernameEnv");
    exactlyOne("passwordEnv", "passwordFile");
  } else {
    exactlyOne("tokenEnv", "tokenFile");
  }
}

/**
 * Defaults and cross-key rules of `subjects[index].registry`. `claimed` maps `registry\0subject` to
 * the config subject that already reads it, so that one registry subject feeds one config subject.
 */
export function subjectRegistryFrom(
  raw: RawSubjectRegistry,
  index: number,
  topics: readonly string[],
  registries: Readonly<Record<string, RegistryConfig>>,
  claimed: Map<string, string>,
  owner: string,
  where: Where,
): SubjectRegistryConfig {
  const at = (...keys: (string | number)[]) => where(["subjects", index, "registry", ...keys]);
  if (registries[raw.name] === undefined) {
    const known = Object.keys(registries);
    throw invalid(
      `${at("name")}: no registry '${raw.name}' under registries (${known.length > 0 ? `known: ${known.join(", ")}` : "none is defined"})`,
    );
  }
  // The TopicNameStrategy, the serializers' default: the value schema of topic T is subject T-value.
  const subject = raw.subject ?? `${topics[0]}-value`;
  const key = `${raw.name}\0${subject}`;
  const other = claimed.get(key);
  if (other !== undefined) {
    throw invalid(
      `${at("subject")}: registry subject '${subject}' of '${raw.name}' is already read by subject '${other}'`,
    );
  }
  claimed.set(key, owner);
  const labels = raw.labels ?? DEFAULTS.registryLabels;
  const versions = raw.versions ?? {};
  checkLabels(versions, labels, at);
  return { name: raw.name, subject, labels, versions };
}

/** Config labels need `labels: semver`, and must rise with the registry number, as versions do. */
function checkLabels(
  versions: Record<string, RegistryVersionConfig>,
  labels: LabelRule,
  at: (...keys: (string | number)[]) => string,
): void {
  let previous: { number: number; label: Version } | undefined;
  const numbers = Object.keys(versions)
    .map(Number)
    .sort((a, b) => a - b);
  for (const number of numbers) {
    const text = versions[String(number)]?.label;
    if (text === undefined) continue;
    if (labels !== "semver") {
      throw invalid(
        `${at("versions", String(number), "label")}: a label needs labels: semver (labels is ${labels})`,
      );
    }
    const label = tryParseVersion(text)!;
    if (previous && compareVersions(label, previous.label) <= 0) {
      throw invalid(
        `${at("versions", String(number), "label")}: ${label.text} must be higher than the label of version ${previous.number} (${previous.label.text}): labels rise with the registry's version numbers`,
      );
    }
    previous = { number, label };
  }
}
