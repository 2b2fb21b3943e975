import { formatOfRegistryType, JSON_FORMAT } from "../formats/index.js";
import type { RegistryClient } from "./client.js";
import { RegistryError } from "./http.js";
import { ReferenceResolver } from "./references.js";
import type {
  RegisteredSchema,
  RegistryState,
  RegistryVersion,
  SkippedVersion,
  SubjectSnapshot,
} from "./types.js";

/** What a registered version always is, whatever its state: content never changes once registered. */
type Content =
  (Omit<RegistryVersion, "state" | "deleted"> & { readonly metadataState?: RegistryState }) | SkippedVersion;

const FETCH_CONCURRENCY = 4;

/**
 * Reads snapshots of registry subjects: every version (soft-deleted ones too, where the registry
 * lists them with `?deleted=true`), each with its references resolved, its state where the registry
 * has one (Apicurio's native states, else a `schemawatch.status` metadata property), and the subject's compatibility level. A version's content is fetched once; later reads
 * cost a handful of requests per subject (two version lists, the states, the compatibility level).
 *
 * A version of a type no format reads (src/formats/), that does not parse, or whose references cannot be resolved is
 * reported under `skipped`; a registry that does not answer fails the whole read.
 */
export class SnapshotReader {
  readonly registry: string;
  readonly #client: RegistryClient;
  readonly #references: ReferenceResolver;
  readonly #now: () => number;
  readonly #content = new Map<string, Content>();

  constructor(registry: string, client: RegistryClient, now: () => number = Date.now) {
    this.registry = registry;
    this.#client = client;
    this.#references = new ReferenceResolver(client);
    this.#now = now;
  }

  get client(): RegistryClient {
    return this.#client;
  }

  async read(subject: string): Promise<SubjectSnapshot> {
    const fetchedAt = this.#now();
    const [all, liveList] = await Promise.all([
      this.#versions(subject, true),
      this.#versions(subject, false),
    ]);
    const live = new Set(liveList);
    const [native, compatibility] = await Promise.all([
      all.length > 0 ? this.#client.nativeVersions(subject) : undefined,
      this.#client.compatibility(subject),
    ]);
    const contents = await mapLimited(all, FETCH_CONCURRENCY, (version) => this.#contentOf(subject, version));
    const versions: RegistryVersion[] = [];
    const skipped: SkippedVersion[] = [];
    for (const content of contents) {
      if (content === undefined) continue;
      if ("reason" in content) {
        skipped.push(content);
        continue;
      }
      // Apicurio's native state can change; Confluent metadata is fixed at registration.
      const { metadataState, ...rest } = content;
      const own = native?.get(content.version);
      const state = own?.state ?? metadataState;
      versions.push({
        ...rest,
        ...(own?.globalId !== undefined ? { globalId: own.globalId } : {}),
        ...(own?.contentId !== undefined ? { contentId: own.contentId } : {}),
        ...(state !== undefined ? { state } : {}),
        deleted: !live.has(content.version),
      });
    }
    return { registry: this.registry, subject, versions, skipped, compatibility, fetchedAt };
  }

  /** A subject the registry does not know (40401) has no versions yet; that is not a failure. */
  async #versions(subject: string, deleted: boolean): Promise<number[]> {
    try {
      return await this.#client.versions(subject, { deleted });
    } catch (error) {
      if (error instanceof RegistryError && error.code === "REGISTRY_NOT_FOUND") return [];
      throw error;
    }
  }

  async #contentOf(subject: string, version: number): Promise<Content | undefined> {
    const key = `${subject}\0${version}`;
    const known = this.#content.get(key);
    if (known) return known;
    let registered: RegisteredSchema;
    try {
      registered = await this.#client.version(subject, version, { deleted: true });
    } catch (error) {
      // Listed a moment ago and gone now: deleted in between. The next read will not list it.
      if (error instanceof RegistryError && error.code === "REGISTRY_NOT_FOUND") return undefined;
      throw error;
    }
    const content = await this.#build(registered);
    // Only what the content itself decides is kept; a reference that failed may resolve next time.
    if (!("reason" in content) || content.reason !== "reference_failed") this.#content.set(key, content);
    return content;
  }

  #build(registered: RegisteredSchema): Promise<Content> {
    return buildContent(registered, this.#references, this.#client.http.label);
  }
}

/**
 * One version as the catalog takes it: the registered schema parsed, its references resolved; or why
 * it cannot be used (not JSON Schema, not a schema, a reference that does not resolve).
 */
async function buildContent(
  registered: RegisteredSchema,
  resolver: ReferenceResolver,
  label: string,
): Promise<Content> {
  const { subject, version, id } = registered;
  const where = `${label}: ${subject} version ${version} (id ${id})`;
  const format = formatOfRegistryType(registered.schemaType);
  if (format === undefined) {
    return {
      subject,
      version,
      id,
      reason: "not_json_schema",
      message: `${where} is ${registered.schemaType}, which schemawatch does not read: left out`,
    };
  }
  const json = format === JSON_FORMAT;
  let schema: unknown;
  try {
    schema = JSON.parse(registered.schema) as unknown;
  } catch (error) {
    // Another format's text need not be JSON: its format parses it when the catalog is built.
    if (!json) schema = registered.schema;
    else
      return {
        subject,
        version,
        id,
        reason: "invalid_schema",
        message: `${where}: the schema is not valid JSON: ${String(error)}`,
      };
  }
  // An Avro schema may be a type's name ("string") or a union (an array); a JSON Schema may not.
  if (
    json &&
    typeof schema !== "boolean" &&
    (typeof schema !== "object" || schema === null || Array.isArray(schema))
  ) {
    return {
      subject,
      version,
      id,
      reason: "invalid_schema",
      message: `${where}: a schema must be a JSON object or a boolean`,
    };
  }
  try {
    const references = await resolver.resolve(registered);
    return {
      subject,
      version,
      id,
      ...(registered.guid !== undefined ? { guid: registered.guid } : {}),
      schema,
      ...(json ? {} : { schemaType: format.registryType, text: registered.schema }),
      references,
      referenceEntries: registered.references,
      ...(registered.metadataState !== undefined ? { metadataState: registered.metadataState } : {}),
      ...(registered.metadataTags !== undefined ? { metadataTags: registered.metadataTags } : {}),
    };
  } catch (error) {
    if (
      error instanceof RegistryError &&
      (error.code === "REGISTRY_INVALID" || error.code === "REGISTRY_NOT_FOUND")
    ) {
      return { subject, version, id, reason: "reference_failed", message: error.message };
    }
    throw error;
  }
}

/**
 * One registered version (`latest`: the newest that is not soft-deleted) with its references
 * resolved, for the commands that compare a version with a file. Throws REGISTRY_NOT_FOUND naming the
 * subject and version when the registry has no such version, and REGISTRY_INVALID when the version
 * cannot be used as JSON Schema.
 */
export async function readVersion(
  client: RegistryClient,
  subject: string,
  version: number | "latest",
): Promise<RegistryVersion> {
  let registered: RegisteredSchema;
  try {
    registered = await client.version(subject, version, { deleted: version !== "latest" });
  } catch (error) {
    if (error instanceof RegistryError && error.code === "REGISTRY_NOT_FOUND") {
      throw new RegistryError(
        "REGISTRY_NOT_FOUND",
        `${client.http.label}: no version ${version} of subject '${subject}' (${error.message})`,
        { cause: error, ...(error.status !== undefined ? { status: error.status } : {}) },
      );
    }
    throw error;
  }
  const content = await buildContent(registered, new ReferenceResolver(client), client.http.label);
  if ("reason" in content) throw new RegistryError("REGISTRY_INVALID", content.message, {});
  const { metadataState, ...rest } = content;
  return { ...rest, ...(metadataState !== undefined ? { state: metadataState } : {}), deleted: false };
}

/** `work` on every item, at most `limit` at once; the results in the items' order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
