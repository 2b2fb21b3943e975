import type { Dialect } from "../catalog/dialect.js";
import type { VersionStatus } from "../catalog/types.js";

export type WriterSource = "wire" | "guid-header" | "apicurio-header" | "header" | "pointer";

/**
 * Which registry id a wire prefix carries: `schemaId`, the id of the registry's Confluent API
 * (Confluent's schema id; Apicurio 3's contentId unless its legacy id mode is on); `globalId` or
 * `contentId`, Apicurio's own ids, mapped to versions through its native API.
 */
export type WireId = "schemaId" | "globalId" | "contentId";

/** How a wire prefix (magic byte 0, then the id) is read. */
export interface WireConfig {
  /** 4 (Confluent; Apicurio's `Default4ByteIdHandler` and `Legacy4ByteIdHandler`) or 8 (Apicurio 2.x's `DefaultIdHandler`). */
  readonly idBytes: 4 | 8;
  readonly id: WireId;
}

export interface VersionConfig {
  readonly status: VersionStatus;
  readonly file?: string;
  readonly deprecatedSince?: string;
  readonly confluentId?: number;
  readonly confluentGuid?: string;
}

export interface WriterConfig {
  /** The order in which the writer version is looked for. */
  readonly sources: readonly WriterSource[];
  /**
   * True when the config gave no `sources`: the default order, whose `pointer` a subject whose format
   * cannot read a body without its writer (Avro) leaves out rather than refuses.
   */
  readonly defaultSources?: true;
  readonly header: string;
  readonly pointer: string;
  readonly wire: WireConfig;
}

export interface ProducerConfig {
  readonly header?: string;
  readonly keyPattern?: string;
  readonly pointer?: string;
  readonly allow?: readonly string[];
  readonly maxValues: number;
}

export interface SamplingConfig {
  readonly ratio: number;
  readonly maxPerSecond: number;
}

/** Config for one registry version, keyed by its registry version number (`"3"`). */
export interface RegistryVersionConfig {
  /** Wins over the registry's own state. */
  readonly status?: VersionStatus;
  readonly deprecatedSince?: string;
  /** The semver this version is labelled with; only with `labels: semver`. */
  readonly label?: string;
}

/**
 * How a version of a registry subject is labelled: `number` uses the registry's version number as the
 * registry shows it (`3`); `semver` uses the config's `label`, else the semver of the schema's `$id`.
 */
export type LabelRule = "number" | "semver";

/** Where a subject's registered versions come from. */
export interface SubjectRegistryConfig {
  /** A key of `registries`. */
  readonly name: string;
  /** The registry subject, `<first topic>-value` (the TopicNameStrategy) unless given. */
  readonly subject: string;
  readonly labels: LabelRule;
  readonly versions: Readonly<Record<string, RegistryVersionConfig>>;
}

/**
 * Fields of interest the config adds to what a subject's schemas name (docs/fields.md): each a JSON
 * Pointer, `*` for any item of an array.
 */
export interface FieldsConfig {
  /** Tracked whatever the schemas say. */
  readonly add: readonly string[];
  /** Never tracked, nor anything under them. */
  readonly exclude: readonly string[];
  /** Per replacement, the field it replaces (`/total` → `/amount`): a rename, expand then contract. */
  readonly replaces: Readonly<Record<string, string>>;
}

export interface SubjectConfig {
  readonly name: string;
  readonly topics: readonly string[];
  /**
   * Absolute path of the folder that holds the subject's schema files. Optional for a subject whose
   * versions come from a registry (where it holds candidates not registered yet).
   */
  readonly schemas?: string;
  readonly versions: Readonly<Record<string, VersionConfig>>;
  readonly registry?: SubjectRegistryConfig;
  readonly writer: WriterConfig;
  readonly producer: ProducerConfig;
  readonly sampling: SamplingConfig;
  /** Seconds. */
  readonly drainWindow: number;
  /** Seconds. */
  readonly readyWindow: number;
  readonly minSamples: number;
  /** Absent when the config names none: the schemas alone say which fields are of interest. */
  readonly fields?: FieldsConfig;
}

export interface TlsConfig {
  readonly enabled: boolean;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly rejectUnauthorized: boolean;
}

export interface SaslConfig {
  readonly mechanism: "plain" | "scram-sha-256" | "scram-sha-512";
  readonly username?: string;
  readonly usernameEnv?: string;
  readonly passwordEnv?: string;
  readonly passwordFile?: string;
  /** The config file that names these secrets, for the message when one cannot be read. */
  readonly configFile?: string;
}

export interface KafkaConfig {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly groupId: string;
  readonly fromBeginning: boolean;
  readonly tls?: TlsConfig;
  readonly sasl?: SaslConfig;
  /** Milliseconds between lag measurements. */
  readonly lagInterval: number;
}

/** Basic auth (Confluent Cloud: API key and secret) or a bearer token; secrets from env or files. */
export interface RegistryAuthConfig {
  readonly type: "basic" | "bearer";
  readonly username?: string;
  readonly usernameEnv?: string;
  readonly passwordEnv?: string;
  readonly passwordFile?: string;
  readonly tokenEnv?: string;
  readonly tokenFile?: string;
  /** The config file that names these secrets, for the message when one cannot be read. */
  readonly configFile?: string;
}

export interface RegistryTlsConfig {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly rejectUnauthorized: boolean;
}

/** A schema registry with the Confluent REST API. */
export interface RegistryConfig {
  /** Its key under `registries`. */
  readonly name: string;
  /** The base URL of the Confluent API, without a trailing slash. */
  readonly url: string;
  readonly auth?: RegistryAuthConfig;
  readonly tls?: RegistryTlsConfig;
  /** Milliseconds between polls. */
  readonly pollInterval: number;
  /** Milliseconds one request may take, retries not counted. */
  readonly timeout: number;
  /** Retries of a request that failed on the network, timed out, or got 429 or 5xx. */
  readonly retries: number;
  /** Lookups of unknown wire ids and GUIDs in flight at once. */
  readonly lookupsInFlight: number;
  /** Lookups of unknown wire ids and GUIDs started per second. */
  readonly lookupsPerSecond: number;
  /** Ids (and, apart, GUIDs) whose lookup is remembered at most. */
  readonly lookupCache: number;
  /** Milliseconds a record whose id is being looked up waits for the answer; 0: it never waits. */
  readonly lookupWait: number;
  /** Records waiting for a lookup at most; the ones past it are counted as unknown at once. */
  readonly lookupWaitRecords: number;
}

export interface HttpConfig {
  readonly host: string;
  readonly port: number;
}

export interface MetricsConfig {
  /**
   * Whether `schemawatch_validations_total` and `schemawatch_validation_failures_total` carry the
   * `producer` label. Without it each is summed over producers at scrape time; the record counts keep it.
   */
  readonly producerDetail: boolean;
  /**
   * How many `schemawatch_*` series a scrape may export before the per-producer series that need no
   * attention are summed over producers (src/metrics/budget.ts).
   */
  readonly seriesBudget: number;
}

export interface StateConfig {
  readonly file?: string;
  readonly topic?: string;
  /**
   * Milliseconds without a heartbeat after which a replica's records in the state topic are deleted
   * by the replicas still running (src/state/forget.ts).
   */
  readonly forgetReplicasAfter: number;
}

export interface ShutdownConfig {
  /** Milliseconds from SIGTERM or SIGINT to the end of the process, whatever Kafka or a registry do. */
  readonly deadline: number;
}

export interface CorpusConfig {
  readonly enabled: boolean;
  readonly serve: boolean;
  readonly maxShapes: number;
  readonly redact: readonly string[];
}

/** Field statistics and the scale-shift test (docs/stats.md). */
export interface StatsConfig {
  readonly enabled: boolean;
  /** A bucket's length in ms. */
  readonly bucket: number;
  /** Buckets kept per series. */
  readonly buckets: number;
  readonly maxSeries: number;
  /** The estimated bytes all buckets may take, in MiB. */
  readonly maxMemoryMiB: number;
  /** Fields profiled per subject. */
  readonly maxFields: number;
  /** Values of an enum or named string field counted by name. */
  readonly maxValues: number;
  /** The least factor every quartile must move by. */
  readonly factor: number;
  /** Per subject name and field pointer, a factor of its own. */
  readonly factors: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Values needed before and after a change. */
  readonly minSamples: number;
  /** Records profiled a second per subject and producer: more are thinned to a random share. */
  readonly maxPerSecond: number;
  /** Per subject name, pointers profiled whatever the schema says. */
  readonly include: Readonly<Record<string, readonly string[]>>;
  /** Per subject name, pointers never profiled. */
  readonly exclude: Readonly<Record<string, readonly string[]>>;
}

export interface Config {
  /** Absolute path of the file the config came from. */
  readonly path: string;
  readonly kafka: KafkaConfig;
  readonly http: HttpConfig;
  readonly metrics: MetricsConfig;
  readonly maxRecordBytes: number;
  /** Validation worker threads; 0 validates on the consumer's thread. */
  readonly workers: number;
  /** Milliseconds one record's validation may take before it is stopped and counted as `timeout`. */
  readonly validationTimeout: number;
  readonly shared: readonly string[];
  readonly registries: Readonly<Record<string, RegistryConfig>>;
  /** The dialect of a schema file without `$schema`. */
  readonly defaultDialect: Dialect;
  /** `format`, `contentEncoding` and `contentMediaType` are assertions in drafts 04 to 07. */
  readonly assertFormats: boolean;
  readonly subjects: readonly SubjectConfig[];
  readonly state: StateConfig;
  readonly shutdown: ShutdownConfig;
  readonly corpus: CorpusConfig;
  readonly stats: StatsConfig;
  readonly logLevel: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
}
