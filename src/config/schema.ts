/**
 * The JSON Schema of the config file. Defaults live in defaults.ts, not here, so that the schema says
 * only what is allowed. Every object is closed: an unknown key is an error that names the key and line.
 */
const duration = { type: "string", pattern: "^[0-9]+(ms|s|m|h|d)$" } as const;
const pointer = { type: "string", pattern: "^(/([^~/]|~[01])*)*$" } as const;
const nonEmpty = { type: "string", minLength: 1 } as const;

const versionEntry = {
  type: "object",
  additionalProperties: false,
  required: ["status"],
  properties: {
    status: { enum: ["active", "deprecated", "candidate", "retired"] },
    file: nonEmpty,
    deprecatedSince: nonEmpty,
    confluentId: { type: "integer", minimum: 0, maximum: 2147483647 },
    confluentGuid: {
      type: "string",
      pattern: "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$",
    },
  },
} as const;

const registryName = { type: "string", pattern: "^[A-Za-z0-9._-]+$" } as const;

/** A subject's versions from a schema registry; cross-key rules are in registries.ts. */
const subjectRegistry = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: registryName,
    subject: nonEmpty,
    labels: { enum: ["number", "semver"] },
    versions: {
      type: "object",
      // Keyed by the registry's own version number, as the registry shows it.
      propertyNames: { pattern: "^[1-9][0-9]{0,9}$" },
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        properties: {
          status: { enum: ["active", "deprecated", "candidate", "retired"] },
          deprecatedSince: nonEmpty,
          label: { type: "string", pattern: "^v?[0-9]+(\\.[0-9]+){0,2}(-[0-9A-Za-z.-]+)?$" },
        },
      },
    },
  },
} as const;

const registry = {
  type: "object",
  additionalProperties: false,
  required: ["url"],
  properties: {
    url: { type: "string", pattern: "^https?://" },
    auth: {
      type: "object",
      additionalProperties: false,
      required: ["type"],
      properties: {
        type: { enum: ["basic", "bearer"] },
        username: nonEmpty,
        usernameEnv: nonEmpty,
        passwordEnv: nonEmpty,
        passwordFile: nonEmpty,
        tokenEnv: nonEmpty,
        tokenFile: nonEmpty,
      },
    },
    tls: {
      type: "object",
      additionalProperties: false,
      properties: {
        ca: nonEmpty,
        cert: nonEmpty,
        key: nonEmpty,
        rejectUnauthorized: { type: "boolean" },
      },
    },
    pollInterval: duration,
    timeout: duration,
    retries: { type: "integer", minimum: 0, maximum: 10 },
    lookupsInFlight: { type: "integer", minimum: 1, maximum: 6 },
    lookupsPerSecond: { type: "integer", minimum: 1, maximum: 1000 },
    lookupCache: { type: "integer", minimum: 100, maximum: 100000 },
    lookupWait: duration,
    lookupWaitRecords: { type: "integer", minimum: 0, maximum: 100000 },
  },
} as const;

const subject = {
  type: "object",
  additionalProperties: false,
  // schemas or registry (or both): checked in load.ts, to say it in words.
  required: ["name", "topics"],
  properties: {
    name: { type: "string", pattern: "^[A-Za-z0-9._-]+$" },
    registry: subjectRegistry,
    topics: { type: "array", minItems: 1, uniqueItems: true, items: nonEmpty },
    schemas: nonEmpty,
    versions: {
      type: "object",
      propertyNames: { pattern: "^v?[0-9]+(\\.[0-9]+){0,2}(-[0-9A-Za-z.-]+)?$" },
      additionalProperties: versionEntry,
    },
    writer: {
      type: "object",
      additionalProperties: false,
      properties: {
        sources: {
          type: "array",
          minItems: 1,
          uniqueItems: true,
          items: { enum: ["wire", "guid-header", "apicurio-header", "header", "pointer"] },
        },
        header: nonEmpty,
        pointer,
        wire: {
          type: "object",
          additionalProperties: false,
          properties: {
            idBytes: { enum: [4, 8] },
            id: { enum: ["schemaId", "globalId", "contentId"] },
          },
        },
      },
    },
    producer: {
      type: "object",
      additionalProperties: false,
      properties: {
        header: nonEmpty,
        keyPattern: nonEmpty,
        pointer,
        allow: { type: "array", uniqueItems: true, items: nonEmpty },
        maxValues: { type: "integer", minimum: 1, maximum: 10000 },
      },
    },
    sampling: {
      type: "object",
      additionalProperties: false,
      properties: {
        ratio: { type: "number", minimum: 0, maximum: 1 },
        maxPerSecond: { type: "number", exclusiveMinimum: 0 },
      },
    },
    drainWindow: duration,
    readyWindow: duration,
    minSamples: { type: "integer", minimum: 1 },
    // Fields of interest beyond what the schemas say (docs/fields.md); cross-key rules in fields.ts.
    fields: {
      type: "object",
      additionalProperties: false,
      properties: {
        add: { type: "array", uniqueItems: true, items: pointer },
        exclude: { type: "array", uniqueItems: true, items: pointer },
        // The replacement's pointer to the pointer of the field it replaces: `/total: /amount`.
        replaces: { type: "object", propertyNames: pointer, additionalProperties: pointer },
      },
    },
  },
} as const;

export const configSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  additionalProperties: false,
  required: ["subjects"],
  properties: {
    kafka: {
      type: "object",
      additionalProperties: false,
      properties: {
        brokers: { type: "array", minItems: 1, items: nonEmpty },
        clientId: nonEmpty,
        groupId: nonEmpty,
        fromBeginning: { type: "boolean" },
        lagInterval: duration,
        tls: {
          type: "object",
          additionalProperties: false,
          properties: {
            enabled: { type: "boolean" },
            ca: nonEmpty,
            cert: nonEmpty,
            key: nonEmpty,
            rejectUnauthorized: { type: "boolean" },
          },
        },
        sasl: {
          type: "object",
          additionalProperties: false,
          required: ["mechanism"],
          properties: {
            mechanism: { enum: ["plain", "scram-sha-256", "scram-sha-512"] },
            username: nonEmpty,
            usernameEnv: nonEmpty,
            passwordEnv: nonEmpty,
            passwordFile: nonEmpty,
          },
        },
      },
    },
    http: {
      type: "object",
      additionalProperties: false,
      properties: {
        host: nonEmpty,
        port: { type: "integer", minimum: 0, maximum: 65535 },
      },
    },
    metrics: {
      type: "object",
      additionalProperties: false,
      properties: { producerDetail: { type: "boolean" }, seriesBudget: { type: "integer", minimum: 0 } },
    },
    maxRecordBytes: { type: "integer", minimum: 1 },
    workers: { type: "integer", minimum: 0, maximum: 16 },
    validationTimeout: { type: "string", pattern: "^[1-9][0-9]*(ms|s)$" },
    logLevel: { enum: ["trace", "debug", "info", "warn", "error", "fatal", "silent"] },
    shared: { type: "array", items: nonEmpty },
    defaultDialect: { enum: ["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"] },
    assertFormats: { type: "boolean" },
    state: {
      type: "object",
      additionalProperties: false,
      properties: { file: nonEmpty, topic: nonEmpty, forgetReplicasAfter: duration },
    },
    shutdown: {
      type: "object",
      additionalProperties: false,
      properties: { deadline: duration },
    },
    corpus: {
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: { type: "boolean" },
        serve: { type: "boolean" },
        maxShapes: { type: "integer", minimum: 1, maximum: 100000 },
        redact: { type: "array", items: pointer },
      },
    },
    stats: {
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: { type: "boolean" },
        // A whole number of seconds or more: a bucket is an index of time, never zero long.
        bucket: { type: "string", pattern: "^[1-9][0-9]*(s|m|h|d)$" },
        buckets: { type: "integer", minimum: 2, maximum: 1000 },
        maxSeries: { type: "integer", minimum: 1, maximum: 100000 },
        maxMemoryMiB: { type: "integer", minimum: 1, maximum: 65536 },
        maxFields: { type: "integer", minimum: 1, maximum: 1000 },
        maxValues: { type: "integer", minimum: 1, maximum: 1000 },
        factor: { type: "number", exclusiveMinimum: 1 },
        factors: {
          type: "object",
          additionalProperties: {
            type: "object",
            propertyNames: pointer,
            additionalProperties: { type: "number", exclusiveMinimum: 1 },
          },
        },
        minSamples: { type: "integer", minimum: 1 },
        maxPerSecond: { type: "integer", minimum: 1, maximum: 1000000000 },
        include: { type: "object", additionalProperties: { type: "array", items: pointer } },
        exclude: { type: "object", additionalProperties: { type: "array", items: pointer } },
      },
    },
    registries: {
      type: "object",
      propertyNames: registryName,
      additionalProperties: registry,
    },
    subjects: { type: "array", minItems: 1, items: subject },
  },
} as const;
