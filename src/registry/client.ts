import { metadataTagsOf } from "../formats/tags.js";
import { RegistryError, type RegistryHttp } from "./http.js";
import { stateFromMetadata } from "./states.js";
import {
  REGISTRY_STATES,
  type CompatibilityLevel,
  type ReferenceEntry,
  type RegisteredSchema,
  type RegistryState,
} from "./types.js";

/** A schema as `/schemas/ids/{id}` and `/schemas/guids/{guid}` answer: no subject, no version. */
export interface SchemaById {
  readonly id?: number;
  readonly guid?: string;
  readonly schemaType: string;
  readonly schema: string;
  readonly references: readonly ReferenceEntry[];
}

export interface SubjectVersion {
  readonly subject: string;
  readonly version: number;
}

/** A version as Apicurio's native API shows it: the parts the Confluent API does not carry. */
export interface NativeVersion {
  readonly state?: RegistryState;
  readonly globalId?: number;
  readonly contentId?: number;
}

/** The registry's own verdict on a schema against a registered version. */
export interface CompatibilityAnswer {
  readonly compatible: boolean;
  readonly messages: readonly string[];
}

const seg = encodeURIComponent;

/**
 * The calls of the Confluent REST API the catalog uses, with answers checked and typed. Where the
 * server is Apicurio (a base URL ending in `/apis/ccompat/vN`), version states come from its native
 * API (`/apis/registry/v3`), which the Confluent API does not carry.
 */
export class RegistryClient {
  readonly http: RegistryHttp;
  readonly #nativeBase: string | undefined;
  #native: Promise<boolean> | undefined;

  constructor(http: RegistryHttp, url: string) {
    this.http = http;
    const match = /^(.*)\/apis\/ccompat\/v\d+$/.exec(new URL(url).pathname);
    this.#nativeBase = match ? `${match[1]}/apis/registry/v3` : undefined;
  }

  async subjects(options: { deleted?: boolean } = {}): Promise<string[]> {
    const path = `/subjects${options.deleted ? "?deleted=true" : ""}`;
    const body = await this.http.get(path);
    if (!Array.isArray(body) || !body.every((s) => typeof s === "string"))
      throw this.#shape(path, "a list of subject names");
    return body as string[];
  }

  /** The version numbers of a subject, ascending; with `deleted`, soft-deleted ones too where served. */
  async versions(subject: string, options: { deleted?: boolean } = {}): Promise<number[]> {
    const path = `/subjects/${seg(subject)}/versions${options.deleted ? "?deleted=true" : ""}`;
    const body = await this.http.get(path);
    if (!Array.isArray(body) || !body.every((v) => Number.isInteger(v)))
      throw this.#shape(path, "a list of version numbers");
    return (body as number[]).slice().sort((a, b) => a - b);
  }

  async version(
    subject: string,
    version: number | "latest",
    options: { deleted?: boolean } = {},
  ): Promise<RegisteredSchema> {
    const path = `/subjects/${seg(subject)}/versions/${version}${options.deleted ? "?deleted=true" : ""}`;
    const body = record(await this.http.get(path));
    const number = body["version"];
    const id = body["id"];
    if (!Number.isInteger(number) || !Number.isInteger(id) || typeof body["schema"] !== "string") {
      throw this.#shape(path, "a version with subject, version, id and schema");
    }
    const metadataState = stateFromMetadata(body);
    const metadataTags = metadataTagsOf(body);
    return {
      subject: typeof body["subject"] === "string" ? body["subject"] : subject,
      version: number as number,
      id: id as number,
      ...guidOf(body),
      schemaType: schemaTypeOf(body),
      schema: body["schema"] as string,
      references: this.#references(body, path),
      ...(metadataState !== undefined ? { metadataState } : {}),
      ...(metadataTags !== undefined ? { metadataTags } : {}),
    };
  }

  async schemaById(id: number): Promise<SchemaById> {
    const path = `/schemas/ids/${id}`;
    return this.#schema(record(await this.http.get(path)), path, id);
  }

  /** The (subject, version) pairs that use schema `id`; with `deleted`, soft-deleted ones too. */
  async subjectVersionsById(id: number, options: { deleted?: boolean } = {}): Promise<SubjectVersion[]> {
    const path = `/schemas/ids/${id}/versions${options.deleted ? "?deleted=true" : ""}`;
    const body = await this.http.get(path);
    if (!Array.isArray(body)) throw this.#shape(path, "a list of subject versions");
    return body.map((entry) => {
      const item = record(entry);
      if (typeof item["subject"] !== "string" || !Number.isInteger(item["version"]))
        throw this.#shape(path, "subject and version");
      return { subject: item["subject"], version: item["version"] as number };
    });
  }

  /** `/schemas/guids/{guid}` (Confluent 8, Redpanda 26.3); undefined where the server lacks the route. */
  async schemaByGuid(guid: string): Promise<SchemaById | undefined> {
    const path = `/schemas/guids/${seg(guid)}`;
    let body: unknown;
    try {
      body = await this.http.probe(path);
    } catch (error) {
      // A missing GUID answers a Confluent error body (error_code 404xx); a missing route answers none.
      if (error instanceof RegistryError && error.status === 404 && error.errorCode === undefined)
        return undefined;
      throw error;
    }
    return this.#schema(record(body), path, undefined);
  }

  /** `/config/{subject}`, else the global `/config`. Undefined when neither says. */
  async compatibility(subject: string): Promise<CompatibilityLevel | undefined> {
    const own = await this.#config(`/config/${seg(subject)}`);
    if (own !== undefined) return { level: own, source: "subject" };
    const global = await this.#config("/config");
    return global !== undefined ? { level: global, source: "global" } : undefined;
  }

  /** The registry's check of `schema` against a registered version (`verbose` where served). */
  async checkCompatibility(
    subject: string,
    version: number | "latest",
    schema: { schema: string; schemaType?: string; references?: readonly ReferenceEntry[] },
  ): Promise<CompatibilityAnswer> {
    const path = `/compatibility/subjects/${seg(subject)}/versions/${version}?verbose=true`;
    const body = record(
      await this.http.post(path, {
        schemaType: schema.schemaType ?? "JSON",
        schema: schema.schema,
        ...(schema.references && schema.references.length > 0 ? { references: schema.references } : {}),
      }),
    );
    if (typeof body["is_compatible"] !== "boolean") throw this.#shape(path, "is_compatible", "POST");
    const messages = Array.isArray(body["messages"])
      ? body["messages"].filter((m) => typeof m === "string")
      : [];
    return { compatible: body["is_compatible"], messages };
  }

  /**
   * Apicurio's own view of each version of `subject` (default group), by version number: its state and
   * its globalId and contentId, the ids Apicurio's serdes may write instead of the Confluent API's.
   * Undefined when the server is not Apicurio 3 or does not know the subject as an artifact.
   */
  async nativeVersions(subject: string): Promise<Map<number, NativeVersion> | undefined> {
    if (this.#nativeBase === undefined || !(await this.#hasNative())) return undefined;
    const out = new Map<number, NativeVersion>();
    const limit = 500;
    for (let offset = 0; ; offset += limit) {
      const path = `${this.#nativeBase}/groups/default/artifacts/${seg(subject)}/versions?offset=${offset}&limit=${limit}`;
      let body: Record<string, unknown>;
      try {
        body = record(await this.http.getFromRoot(path));
      } catch (error) {
        if (error instanceof RegistryError && error.code === "REGISTRY_NOT_FOUND") return undefined;
        throw error;
      }
      const versions = body["versions"];
      if (!Array.isArray(versions)) throw this.#shape(path, "versions");
      for (const entry of versions) {
        const item = record(entry);
        const number = Number(item["version"]);
        if (!Number.isInteger(number)) continue;
        const state = item["state"];
        out.set(number, {
          ...(REGISTRY_STATES.includes(state as RegistryState) ? { state: state as RegistryState } : {}),
          ...idsOf(item),
        });
      }
      const count = typeof body["count"] === "number" ? body["count"] : 0;
      if (versions.length < limit || offset + limit >= count) return out;
    }
  }

  /**
   * The subject versions that carry an Apicurio globalId (one) or contentId (every version of that
   * content), from the native API's search; an empty list when none does. Undefined where the server
   * has no native API (not Apicurio 3).
   */
  async versionsByNativeId(
    kind: "globalId" | "contentId",
    id: number,
  ): Promise<(SubjectVersion & { globalId?: number; contentId?: number })[] | undefined> {
    if (this.#nativeBase === undefined || !(await this.#hasNative())) return undefined;
    const path = `${this.#nativeBase}/search/versions?${kind}=${id}&limit=100`;
    const body = record(await this.http.getFromRoot(path));
    const versions = body["versions"];
    if (!Array.isArray(versions)) throw this.#shape(path, "versions");
    const out: (SubjectVersion & { globalId?: number; contentId?: number })[] = [];
    for (const entry of versions) {
      const item = record(entry);
      const group = item["groupId"];
      const number = Number(item["version"]);
      // The Confluent API's subjects are the default group's artifacts.
      if (group !== undefined && group !== null && group !== "default") continue;
      if (typeof item["artifactId"] !== "string" || !Number.isInteger(number)) continue;
      out.push({ subject: item["artifactId"], version: number, ...idsOf(item) });
    }
    return out;
  }

  /**
   * The path of Apicurio's native API on the registry's host (`/apis/registry/v3`) when it answers;
   * undefined for any other registry.
   */
  async nativeApi(): Promise<string | undefined> {
    if (this.#nativeBase === undefined || !(await this.#hasNative())) return undefined;
    return this.#nativeBase;
  }

  /** Whether the native API answers; asked once per client. */
  #hasNative(): Promise<boolean> {
    this.#native ??= this.http
      .getFromRoot(`${this.#nativeBase}/system/info`)
      .then(() => true)
      .catch((error: unknown) => {
        if (
          error instanceof RegistryError &&
          (error.code === "REGISTRY_NOT_FOUND" || error.code === "REGISTRY_REJECTED")
        ) {
          return false;
        }
        // Not an answer about the API: ask again next time.
        this.#native = undefined;
        throw error;
      });
    return this.#native;
  }

  async #config(path: string): Promise<string | undefined> {
    let body: Record<string, unknown>;
    try {
      body = record(await this.http.get(path));
    } catch (error) {
      // Confluent answers 40408 (no subject-level level) or 40401 (no such subject): fall back.
      if (error instanceof RegistryError && error.code === "REGISTRY_NOT_FOUND") return undefined;
      throw error;
    }
    const level = body["compatibilityLevel"] ?? body["compatibility"];
    return typeof level === "string" ? level : undefined;
  }

  #schema(body: Record<string, unknown>, path: string, id: number | undefined): SchemaById {
    if (typeof body["schema"] !== "string") throw this.#shape(path, "a schema");
    const ownId = Number.isInteger(body["id"]) ? (body["id"] as number) : id;
    return {
      ...(ownId !== undefined ? { id: ownId } : {}),
      ...guidOf(body),
      schemaType: schemaTypeOf(body),
      schema: body["schema"],
      references: this.#references(body, path),
    };
  }

  #references(body: Record<string, unknown>, path: string): ReferenceEntry[] {
    const raw = body["references"];
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw this.#shape(path, "references as a list");
    return raw.map((entry) => {
      const item = record(entry);
      if (
        typeof item["name"] !== "string" ||
        typeof item["subject"] !== "string" ||
        !Number.isInteger(item["version"])
      ) {
        throw this.#shape(path, "references with name, subject and version");
      }
      return { name: item["name"], subject: item["subject"], version: item["version"] as number };
    });
  }

  #shape(path: string, expected: string, method = "GET"): RegistryError {
    return new RegistryError(
      "REGISTRY_INVALID",
      `${this.http.label}: ${method} ${path}: the answer is not ${expected}`,
      {},
    );
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

// The Confluent API leaves schemaType out for Avro, its original and default type.
function schemaTypeOf(body: Record<string, unknown>): string {
  return typeof body["schemaType"] === "string" ? body["schemaType"].toUpperCase() : "AVRO";
}

function idsOf(item: Record<string, unknown>): { globalId?: number; contentId?: number } {
  const { globalId, contentId } = item;
  return {
    ...(Number.isSafeInteger(globalId) ? { globalId: globalId as number } : {}),
    ...(Number.isSafeInteger(contentId) ? { contentId: contentId as number } : {}),
  };
}

function guidOf(body: Record<string, unknown>): { guid?: string } {
  return typeof body["guid"] === "string" && body["guid"] !== "" ? { guid: body["guid"] } : {};
}
