import type { Dialect } from "../catalog/dialect.js";
import type { VersionStatus } from "../catalog/types.js";

export type WriterSource = "wire" | "guid-header" | "header" | "pointer";

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
  readonly header: string;
  readonly pointer: string;
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

export interface SubjectConfig {
  readonly name: string;
  readonly topics: readonly string[];
  /** Absolute path of the folder that holds the subject's schema files. */
  readonly schemas: string;
  readonly versions: Readonly<Record<string, VersionConfig>>;
  readonly writer: WriterConfig;
  readonly producer: ProducerConfig;
  readonly sampling: SamplingConfig;
  /** Seconds. */
  readonly drainWindow: number;
  /** Seconds. */
  readonly readyWindow: number;
  readonly minSamples: number;
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

export interface HttpConfig {
  readonly host: string;
  readonly port: number;
}

export interface StateConfig {
  readonly file?: string;
  readonly topic?: string;
}

export interface CorpusConfig {
  readonly enabled: boolean;
  readonly serve: boolean;
  readonly maxShapes: number;
  readonly redact: readonly string[];
}

export interface Config {
  /** Absolute path of the file the config came from. */
  readonly path: string;
  readonly kafka: KafkaConfig;
  readonly http: HttpConfig;
  readonly maxRecordBytes: number;
  readonly shared: readonly string[];
  /** The dialect of a schema file without `$schema`. */
  readonly defaultDialect: Dialect;
  /** `format`, `contentEncoding` and `contentMediaType` are assertions in drafts 04 to 07. */
  readonly assertFormats: boolean;
  readonly subjects: readonly SubjectConfig[];
  readonly state: StateConfig;
  readonly corpus: CorpusConfig;
  readonly logLevel: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
}
