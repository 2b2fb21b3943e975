import { SchemawatchError, type ErrorCode } from "../errors.js";
import type { RegistryClient, SchemaById, SubjectVersion } from "./client.js";
import { RegistryError } from "./http.js";
import { LookupLimiter } from "./limiter.js";
import type { LookupResult } from "./types.js";

/**
 * What the registry says about a wire id (or GUID): its schema and the subject versions using it. An
 * Apicurio globalId or contentId is answered with the versions only: the poll its answer starts reads
 * their schemas.
 */
export interface IdAnswer {
  readonly schema?: SchemaById;
  readonly usedBy: readonly SubjectVersion[];
}

/** Apicurio's own ids, which its serdes write in a prefix or a header instead of the Confluent API's. */
export type NativeId = "globalId" | "contentId";

/**
 * The state of one lookup. `missing`: the registry answered that it does not know the id; `failed`:
 * it did not answer, `code` saying how (the code only: the error kept whole, with its cause and
 * stacks, cost 1.8 KB an id remembered, 17 MB at the default cap, against 0.28 KB now);
 * `unsupported`: it serves no such lookup (GUIDs on Apicurio). `retryAt` is when a new request may be
 * sent; until then every lookup gets this answer without one. `skipped`: no request was sent because
 * the lookups in flight or per second were at their bound; nothing is remembered.
 */
export type IdLookup =
  | { readonly status: "found"; readonly answer: IdAnswer }
  | { readonly status: "missing"; readonly retryAt: number }
  | { readonly status: "failed"; readonly retryAt: number; readonly code: ErrorCode | undefined }
  | { readonly status: "unsupported" }
  | { readonly status: "skipped" };

const SKIPPED: IdLookup = { status: "skipped" };

export interface IdResolverOptions {
  readonly client: Pick<RegistryClient, "schemaById" | "subjectVersionsById" | "schemaByGuid"> &
    Partial<Pick<RegistryClient, "versionsByNativeId">>;
  /** Milliseconds before the first retry of an unknown id; doubled per miss (default 1 s). */
  readonly initialBackoff?: number;
  /** The longest wait between two requests for one unknown id (default 5 min). */
  readonly maxBackoff?: number;
  /** Ids (and, apart, GUIDs) remembered at most; the oldest are forgotten first (default 10 000). */
  readonly maxEntries?: number;
  /** Lookups in flight at once (default 4). */
  readonly inFlight?: number;
  /** Lookups started per second (default 10). */
  readonly perSecond?: number;
  /**
   * Called once when an id (`id:17`) or GUID (`guid:…`, lower case, no dashes) is found. The lookup's
   * promise settles only after the promise this returns: when the answer has taken effect.
   */
  readonly onFound?: (key: string, answer: IdAnswer) => void | Promise<void>;
  readonly now?: () => number;
}

interface Entry {
  lookup: IdLookup | undefined;
  pending: Promise<IdLookup> | undefined;
  backoff: number;
}

/**
 * Looks up wire ids and GUIDs that the catalog does not know, never once per record: one request in
 * flight per key (every caller meanwhile shares it), answers remembered, and misses cached with
 * exponential backoff, so a burst of records with a bad id costs one request, and a bad id that
 * keeps coming costs one request per backoff period. Lookups of different keys are bounded in flight
 * and per second, and at most `maxEntries` keys are remembered, so a flood of distinct ids costs a
 * bounded number of requests and a bounded amount of memory: the lookups past the bounds are skipped.
 */
export class IdResolver {
  readonly #client: IdResolverOptions["client"];
  readonly #initial: number;
  readonly #max: number;
  readonly #maxEntries: number;
  readonly #onFound: IdResolverOptions["onFound"];
  readonly #now: () => number;
  readonly #limiter: LookupLimiter;
  // Wire ids keyed by number, so that the per-record check builds no string.
  readonly #ids = new Map<number, Entry>();
  readonly #guidEntries = new Map<string, Entry>();
  #guids = true;
  readonly #nativeEntries: Record<NativeId, Map<number, Entry>> = {
    globalId: new Map(),
    contentId: new Map(),
  };
  #natives = true;
  /** Lookups answered so far (ids and GUIDs), by how they ended: the registry's requests for them. */
  readonly results: Record<LookupResult, number> = { found: 0, missing: 0, failed: 0, unsupported: 0 };
  /** Lookups that were due but not sent, because the lookups in flight or per second were at their bound. */
  skipped = 0;

  constructor(options: IdResolverOptions) {
    this.#client = options.client;
    this.#initial = options.initialBackoff ?? 1_000;
    this.#max = options.maxBackoff ?? 300_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#onFound = options.onFound;
    this.#now = options.now ?? Date.now;
    this.#limiter = new LookupLimiter({
      inFlight: options.inFlight ?? 4,
      perSecond: options.perSecond ?? 10,
      now: this.#now,
    });
  }

  /** Ids and GUIDs remembered: never more than `maxEntries` of each. */
  get size(): { ids: number; guids: number } {
    return { ids: this.#ids.size, guids: this.#guidEntries.size };
  }

  /** The current answer for a wire id without sending anything; undefined when none yet. */
  peek(id: number): IdLookup | undefined {
    return this.#ids.get(id)?.lookup;
  }

  /** Looks up a wire id: `/schemas/ids/{id}`, then `/schemas/ids/{id}/versions` when it exists. */
  lookupId(id: number): Promise<IdLookup> {
    return this.#lookup(this.#ids, id, `id:${id}`, async () => {
      const schema = await this.#client.schemaById(id);
      const usedBy = await this.#client.subjectVersionsById(id, { deleted: true });
      return { schema, usedBy };
    });
  }

  /** Looks up a GUID (`/schemas/guids/{guid}`); `unsupported`, without further requests, where not served. */
  lookupGuid(guid: string): Promise<IdLookup> {
    if (!this.#guids) return Promise.resolve({ status: "unsupported" });
    const key = guid.replace(/-/g, "").toLowerCase();
    return this.#lookup(this.#guidEntries, key, `guid:${key}`, async () => {
      const schema = await this.#client.schemaByGuid(guid);
      if (schema === undefined) {
        this.#guids = false;
        return "unsupported";
      }
      const usedBy =
        schema.id !== undefined ? await this.#client.subjectVersionsById(schema.id, { deleted: true }) : [];
      return { schema, usedBy };
    });
  }

  /**
   * Looks up an Apicurio globalId or contentId (`/apis/registry/v3/search/versions?globalId=…`):
   * `missing` when no version carries it, `unsupported`, without further requests, where the registry
   * has no native API.
   */
  lookupNative(kind: NativeId, id: number): Promise<IdLookup> {
    if (!this.#natives) return Promise.resolve({ status: "unsupported" });
    return this.#lookup(this.#nativeEntries[kind], id, `${kind}:${id}`, async () => {
      const usedBy = await this.#client.versionsByNativeId?.(kind, id);
      if (usedBy === undefined) {
        this.#natives = false;
        return "unsupported";
      }
      if (usedBy.length === 0)
        throw new RegistryError("REGISTRY_NOT_FOUND", `no version carries the Apicurio ${kind} ${id}`, {});
      return { usedBy: usedBy.map(({ subject, version }) => ({ subject, version })) };
    });
  }

  /** As `request`, for an Apicurio globalId or contentId. */
  requestNative(kind: NativeId, id: number): Promise<IdLookup> | undefined {
    if (!this.#natives) return undefined;
    const entry = this.#nativeEntries[kind].get(id);
    if (entry !== undefined && !this.#due(entry)) return entry.pending;
    if (!this.#limiter.available()) {
      this.skipped++;
      return undefined;
    }
    this.lookupNative(kind, id).catch(() => undefined);
    return this.#nativeEntries[kind].get(id)?.pending;
  }

  /**
   * For the per-record path: starts a lookup of a wire id when one is due and the bounds allow, and
   * returns at once: the lookup in flight (started now or before), which a record may wait for, or
   * undefined when there is none (answered, backing off, or skipped). While a lookup is in flight or
   * backing off it costs a map read and a clock read, and allocates nothing.
   */
  request(id: number): Promise<IdLookup> | undefined {
    const entry = this.#ids.get(id);
    if (entry !== undefined && !this.#due(entry)) return entry.pending;
    // Checked here too so that a skip, which a flood makes of most records, allocates nothing.
    if (!this.#limiter.available()) {
      this.skipped++;
      return undefined;
    }
    this.lookupId(id).catch(() => undefined);
    return this.#ids.get(id)?.pending;
  }

  /** As `request`, for a GUID (32 hex digits, or with dashes). */
  requestGuid(guid: string): Promise<IdLookup> | undefined {
    if (!this.#guids) return undefined;
    const key = guid.replace(/-/g, "").toLowerCase();
    const entry = this.#guidEntries.get(key);
    if (entry !== undefined && !this.#due(entry)) return entry.pending;
    if (!this.#limiter.available()) {
      this.skipped++;
      return undefined;
    }
    this.lookupGuid(guid).catch(() => undefined);
    return this.#guidEntries.get(key)?.pending;
  }

  /** Forgets what is known of a wire id, for example once the catalog has it. */
  forgetId(id: number): void {
    this.#ids.delete(id);
  }

  #due(entry: Entry): boolean {
    if (entry.pending) return false;
    const known = entry.lookup;
    if (known === undefined) return true;
    if (known.status === "missing" || known.status === "failed") return this.#now() >= known.retryAt;
    return known.status === "skipped";
  }

  #lookup<K>(
    entries: Map<K, Entry>,
    key: K,
    name: string,
    fetch: () => Promise<IdAnswer | "unsupported">,
  ): Promise<IdLookup> {
    let entry = entries.get(key);
    if (entry?.pending) return entry.pending;
    if (entry && !this.#due(entry)) return Promise.resolve(entry.lookup!);
    if (!this.#limiter.tryAcquire()) {
      this.skipped++;
      return Promise.resolve(SKIPPED);
    }
    if (!entry) {
      this.#evict(entries);
      entry = { lookup: undefined, pending: undefined, backoff: this.#initial };
      entries.set(key, entry);
    }
    const current = entry;
    const pending = fetch()
      .finally(() => this.#limiter.release())
      .then(
        (answer): IdLookup => {
          if (answer === "unsupported") return { status: "unsupported" };
          return { status: "found", answer };
        },
        (error: unknown): IdLookup => {
          const retryAt = this.#now() + current.backoff;
          current.backoff = Math.min(current.backoff * 2, this.#max);
          if (error instanceof RegistryError && error.code === "REGISTRY_NOT_FOUND")
            return { status: "missing", retryAt };
          return {
            status: "failed",
            retryAt,
            code: error instanceof SchemawatchError ? error.code : undefined,
          };
        },
      )
      .then(async (lookup) => {
        current.lookup = lookup;
        if (lookup.status !== "skipped") this.results[lookup.status]++;
        if (lookup.status === "found") {
          try {
            await this.#onFound?.(name, lookup.answer);
          } catch {
            // The callback's failure is its own; the lookup stands.
          }
        }
        // In flight until the answer took effect: records of the id meanwhile wait for the same one.
        current.pending = undefined;
        return lookup;
      });
    current.pending = pending;
    return pending;
  }

  #evict<K>(entries: Map<K, Entry>): void {
    while (entries.size >= this.#maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done) return;
      entries.delete(oldest.value);
    }
  }
}
