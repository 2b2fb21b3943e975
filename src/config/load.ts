import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { LineCounter } from "yaml";
import { compilePattern } from "../catalog/regexp.js";
import { SchemawatchError, messageOf } from "../errors.js";
import { DEFAULTS } from "./defaults.js";
import { parseDuration } from "./duration.js";
import { fieldsFrom, type RawFields } from "./fields.js";
import { describe, locate, walk } from "./locate.js";
import {
  registriesFrom,
  subjectRegistryFrom,
  type RawRegistry,
  type RawSubjectRegistry,
  type Where,
} from "./registries.js";
import { configSchema } from "./schema.js";
import { stateConfig, type RawState } from "./state.js";
import { checkVersionKeys, versionKeysAsWritten } from "./version-keys.js";
import { wireFrom } from "./wire.js";
import { MAX_VALUES, aliasProblem, expansionProblem, parseChecked, toPlainData } from "./yaml-limits.js";
import type { Config, SubjectConfig, VersionConfig, WireConfig } from "./types.js";

// `validateSchema: false`: checking our own constant schema against the 2020-12 meta-schema compiled
// that meta-schema at every start (a tenth of start-up at 200 subjects); test/unit/config/schema.test.ts
// makes the same check once, in CI.
const validateConfig = new Ajv2020({ allErrors: true, strict: true, validateSchema: false }).compile(
  configSchema,
);

/** Reads, validates, defaults and freezes a config file. Throws CONFIG_INVALID naming file, key and line. */
export async function loadConfig(path: string): Promise<Config> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (error) {
    throw new SchemawatchError("FILE_UNREADABLE", `${path}: cannot read config: ${messageOf(error)}`, {
      cause: error,
    });
  }
  return parseConfig(text, absolute);
}

/** Parses config text; `path` is used for messages and to resolve relative paths. */
export function parseConfig(text: string, path: string): Config {
  const lines = new LineCounter();
  const document = parseChecked(text, lines, { prettyErrors: false, uniqueKeys: true });
  if (!("errors" in document))
    throw new SchemawatchError("CONFIG_INVALID", `${path}:${document.line}: ${document.message}`);
  const syntax = document.errors[0];
  if (syntax) {
    const { line, col } = lines.linePos(syntax.pos[0]);
    throw new SchemawatchError("NOT_YAML", `${path}:${line}:${col}: not valid YAML: ${syntax.message}`);
  }
  const plain = aliasProblem(document, lines) ?? toPlainData(document, lines);
  if (!("data" in plain))
    throw new SchemawatchError("CONFIG_INVALID", `${path}:${plain.line}: ${plain.message}`);
  const raw = plain.data;
  const expanded = expansionProblem(raw);
  if (expanded) {
    const at = walk(document.contents, expanded, lines);
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `${path}:${at.line}: ${at.key}: stands for more than ${MAX_VALUES} values once its aliases are expanded: refused as an alias bomb`,
    );
  }
  if (!validateConfig(raw)) {
    const messages = (validateConfig.errors ?? []).slice(0, 10).map((error) => {
      const at = locate(document.contents, error, lines);
      return `${path}:${at.line}: ${at.key}: ${describe(error)}`;
    });
    throw new SchemawatchError("CONFIG_INVALID", `invalid config:\n  ${messages.join("\n  ")}`);
  }
  versionKeysAsWritten(document, (raw as RawConfig).subjects);
  checkVersionKeys(
    (raw as RawConfig).subjects,
    path,
    (segments) => walk(document.contents, segments.map(String), lines).line,
  );
  const where: Where = (segments) => {
    const at = walk(document.contents, segments.map(String), lines);
    return `${path}:${at.line}: ${at.key}`;
  };
  return deepFreeze(applyDefaults(raw as RawConfig, path, where));
}

interface RawSubject {
  name: string;
  topics: string[];
  schemas?: string;
  versions?: Record<string, VersionConfig>;
  writer?: Partial<Omit<SubjectConfig["writer"], "wire">> & { wire?: Partial<WireConfig> };
  producer?: Partial<SubjectConfig["producer"]>;
  sampling?: Partial<SubjectConfig["sampling"]>;
  drainWindow?: string;
  readyWindow?: string;
  minSamples?: number;
  registry?: RawSubjectRegistry;
  fields?: RawFields;
}

interface RawConfig {
  kafka?: Partial<Omit<Config["kafka"], "lagInterval">> & { lagInterval?: string };
  http?: Partial<Config["http"]>;
  metrics?: Partial<Config["metrics"]>;
  maxRecordBytes?: number;
  workers?: number;
  validationTimeout?: string;
  logLevel?: Config["logLevel"];
  shared?: string[];
  defaultDialect?: Config["defaultDialect"];
  assertFormats?: boolean;
  state?: RawState;
  shutdown?: { deadline?: string };
  corpus?: Partial<Config["corpus"]>;
  stats?: Partial<Omit<Config["stats"], "bucket">> & { bucket?: string };
  registries?: Record<string, RawRegistry>;
  subjects: RawSubject[];
}

/**
 * A key pattern runs on every record's key, which traffic writes: it must run in time linear in the
 * key, as the schemas' patterns do (`compilePattern`: the native engine for an anchored sequence that
 * cannot backtrack, else RE2). One that only a backtracking engine can run is refused here, never
 * left to stall the monitor on a key that makes it backtrack.
 */
function checkKeyPattern(pattern: string, at: string): void {
  try {
    new RegExp(pattern);
  } catch (error) {
    throw new SchemawatchError("CONFIG_INVALID", `${at}: not a regular expression: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (!compilePattern(pattern, "")?.linear) {
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `${at}: /${pattern}/ needs a backtracking engine (a lookahead, a lookbehind, a backreference, or a repeat count above 1000), and it would run on every record key, where one key can make it backtrack for hours; write it without those (a key pattern runs on the linear-time engine, as schema patterns do)`,
    );
  }
}

function applyDefaults(raw: RawConfig, path: string, where: Where): Config {
  const base = dirname(path);
  const registries = registriesFrom(raw.registries, path, where);
  const claimed = new Map<string, string>();
  const names = new Set<string>();
  const topics = new Map<string, string>();
  const subjects = raw.subjects.map((subject, index): SubjectConfig => {
    if (names.has(subject.name)) {
      throw new SchemawatchError(
        "CONFIG_INVALID",
        `${path}: subjects[${index}].name: '${subject.name}' is listed twice`,
      );
    }
    names.add(subject.name);
    for (const topic of subject.topics) {
      const owner = topics.get(topic);
      if (owner) {
        throw new SchemawatchError(
          "CONFIG_INVALID",
          `${path}: subjects[${index}].topics: topic '${topic}' already belongs to subject '${owner}'`,
        );
      }
      topics.set(topic, subject.name);
    }
    if (subject.producer?.keyPattern !== undefined)
      checkKeyPattern(subject.producer.keyPattern, where(["subjects", index, "producer", "keyPattern"]));
    if (subject.schemas === undefined) {
      if (subject.registry === undefined) {
        throw new SchemawatchError(
          "CONFIG_INVALID",
          `${where(["subjects", index])}: give schemas (a folder of schema files), registry (a schema registry subject), or both`,
        );
      }
      if (Object.keys(subject.versions ?? {}).length > 0) {
        throw new SchemawatchError(
          "CONFIG_INVALID",
          `${where(["subjects", index, "versions"])}: these name schema files, and the subject has no schemas folder; settings of registered versions go under registry.versions, keyed by the registry's version number`,
        );
      }
    }
    const wire = wireFrom(subject, index, where);
    const producer = subject.producer ?? {};
    const usesDefaultSource =
      producer.header === undefined && producer.keyPattern === undefined && producer.pointer === undefined;
    return {
      name: subject.name,
      topics: subject.topics,
      ...(subject.schemas !== undefined ? { schemas: resolve(base, subject.schemas) } : {}),
      versions: subject.versions ?? {},
      writer: {
        ...DEFAULTS.writer,
        ...subject.writer,
        wire,
        ...(subject.writer?.sources === undefined ? { defaultSources: true as const } : {}),
      },
      producer: {
        ...(usesDefaultSource ? { header: DEFAULTS.producer.header } : {}),
        maxValues: DEFAULTS.producer.maxValues,
        ...producer,
      },
      sampling: { ...DEFAULTS.sampling, ...subject.sampling },
      drainWindow: parseDuration(subject.drainWindow ?? DEFAULTS.drainWindow),
      readyWindow: parseDuration(subject.readyWindow ?? DEFAULTS.readyWindow),
      minSamples: subject.minSamples ?? DEFAULTS.minSamples,
      ...(subject.fields ? { fields: fieldsFrom(subject.fields, index, where) } : {}),
      ...(subject.registry
        ? {
            registry: subjectRegistryFrom(
              subject.registry,
              index,
              subject.topics,
              registries,
              claimed,
              subject.name,
              where,
            ),
          }
        : {}),
    };
  });
  const kafka = raw.kafka ?? {};
  return {
    path,
    kafka: {
      brokers: kafka.brokers ?? [...DEFAULTS.kafka.brokers],
      clientId: kafka.clientId ?? DEFAULTS.kafka.clientId,
      groupId: kafka.groupId ?? DEFAULTS.kafka.groupId,
      fromBeginning: kafka.fromBeginning ?? DEFAULTS.kafka.fromBeginning,
      lagInterval: parseDuration(kafka.lagInterval ?? DEFAULTS.kafka.lagInterval) * 1000,
      ...(kafka.tls
        ? {
            tls: {
              ...DEFAULTS.kafka.tls,
              ...kafka.tls,
              ...(kafka.tls.ca ? { ca: resolve(base, kafka.tls.ca) } : {}),
              ...(kafka.tls.cert ? { cert: resolve(base, kafka.tls.cert) } : {}),
              ...(kafka.tls.key ? { key: resolve(base, kafka.tls.key) } : {}),
            },
          }
        : {}),
      ...(kafka.sasl
        ? {
            sasl: {
              ...kafka.sasl,
              configFile: path,
              ...(kafka.sasl.passwordFile ? { passwordFile: resolve(base, kafka.sasl.passwordFile) } : {}),
            },
          }
        : {}),
    },
    http: { ...DEFAULTS.http, ...raw.http },
    metrics: { ...DEFAULTS.metrics, ...raw.metrics },
    maxRecordBytes: raw.maxRecordBytes ?? DEFAULTS.maxRecordBytes,
    workers: raw.workers ?? DEFAULTS.workers,
    validationTimeout: parseDuration(raw.validationTimeout ?? DEFAULTS.validationTimeout) * 1000,
    logLevel: raw.logLevel ?? DEFAULTS.logLevel,
    shared: (raw.shared ?? []).map((p) => resolve(base, p)),
    registries,
    defaultDialect: raw.defaultDialect ?? DEFAULTS.defaultDialect,
    assertFormats: raw.assertFormats ?? DEFAULTS.assertFormats,
    subjects,
    state: stateConfig(raw.state, base, subjects, where),
    shutdown: { deadline: shutdownDeadline(raw.shutdown?.deadline, where) },
    corpus: { ...DEFAULTS.corpus, redact: [], ...raw.corpus },
    stats: {
      ...DEFAULTS.stats,
      include: {},
      exclude: {},
      factors: {},
      ...raw.stats,
      bucket: parseDuration(raw.stats?.bucket ?? DEFAULTS.stats.bucket) * 1000,
    },
  };
}

/** Milliseconds; at least 2 s, of which the process keeps 1 s to end after the stop's last step. */
function shutdownDeadline(text: string | undefined, where: Where): number {
  const ms = parseDuration(text ?? DEFAULTS.shutdown.deadline) * 1000;
  if (ms < 2_000) {
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `${where(["shutdown", "deadline"])}: must be at least 2s (the stop needs time to save the state)`,
    );
  }
  return ms;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
