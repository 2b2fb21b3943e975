import { JSON_FORMAT, formatOfRegistryType } from "../formats/index.js";
import type { RegistryClient } from "./client.js";
import { RegistryError } from "./http.js";
import type { RegisteredSchema, ResolvedReference } from "./types.js";

const MAX_DEPTH = 32;

function keyOf(subject: string, version: number): string {
  return `${subject}\0${version}`;
}

/**
 * Resolves the `references` of registered schemas recursively. A registered (subject, version) never
 * changes, so each is fetched once for the life of the resolver, however many versions and polls
 * refer to it; a failed fetch is not remembered, so the next poll tries again.
 */
export class ReferenceResolver {
  readonly #client: RegistryClient;
  readonly #fetched = new Map<string, Promise<RegisteredSchema>>();

  constructor(client: RegistryClient) {
    this.#client = client;
  }

  /** How many (subject, version) pairs have been fetched or are being fetched. */
  get cached(): number {
    return this.#fetched.size;
  }

  /**
   * Every schema `root` reaches through its references, deepest first, each (name, subject, version)
   * once. Throws REGISTRY_INVALID for a cycle, a name that means two schemas, or a referenced schema
   * of another type than the root's.
   */
  async resolve(root: RegisteredSchema): Promise<ResolvedReference[]> {
    const out: ResolvedReference[] = [];
    const emitted = new Set<string>();
    const names = new Map<string, string>();
    const stack: string[] = [keyOf(root.subject, root.version)];
    // A diamond (two references reaching one schema) walks the shared part once.
    const walked = new Set<string>();
    const label = (key: string) => key.replace("\0", "/");

    const visit = async (from: RegisteredSchema): Promise<void> => {
      for (const reference of from.references) {
        const key = keyOf(reference.subject, reference.version);
        if (stack.includes(key)) {
          const cycle = [...stack.slice(stack.indexOf(key)), key].map(label).join(" → ");
          throw this.#invalid(root, `its references form a cycle: ${cycle}`);
        }
        const meaning = names.get(reference.name);
        if (meaning !== undefined && meaning !== key) {
          throw this.#invalid(
            root,
            `the reference name '${reference.name}' means both ${label(meaning)} and ${label(key)}`,
          );
        }
        names.set(reference.name, key);
        if (stack.length > MAX_DEPTH)
          throw this.#invalid(root, `its references nest deeper than ${MAX_DEPTH}`);
        const target = await this.#fetch(reference.subject, reference.version);
        // A subject holds one format, and so do the schemas its versions reach.
        if (target.schemaType !== root.schemaType) {
          throw this.#invalid(
            root,
            `the reference '${reference.name}' (${label(key)}) is ${target.schemaType}, where the version is ${root.schemaType}`,
          );
        }
        if (!walked.has(key)) {
          stack.push(key);
          await visit(target);
          stack.pop();
          walked.add(key);
        }
        const once = `${reference.name}\0${key}`;
        if (emitted.has(once)) continue;
        emitted.add(once);
        // The target's own format reads its text: JSON Schema's must be JSON, another's is kept as text.
        const json = formatOfRegistryType(target.schemaType) === JSON_FORMAT;
        let schema: unknown = target.schema;
        try {
          schema = JSON.parse(target.schema) as unknown;
        } catch (error) {
          // Another format's text need not be JSON: its format parses it (`text`).
          if (json)
            throw this.#invalid(
              root,
              `the reference '${reference.name}' (${label(key)}) is not valid JSON`,
              error,
            );
        }
        out.push({
          name: reference.name,
          subject: target.subject,
          version: target.version,
          id: target.id,
          schema,
          references: target.references,
          ...(!json ? { schemaType: target.schemaType, text: target.schema } : {}),
        });
      }
    };
    await visit(root);
    return out;
  }

  #fetch(subject: string, version: number): Promise<RegisteredSchema> {
    const key = keyOf(subject, version);
    let pending = this.#fetched.get(key);
    if (!pending) {
      pending = this.#client.version(subject, version, { deleted: true });
      this.#fetched.set(key, pending);
      pending.catch(() => this.#fetched.delete(key));
    }
    return pending;
  }

  #invalid(root: RegisteredSchema, problem: string, cause?: unknown): RegistryError {
    return new RegistryError(
      "REGISTRY_INVALID",
      `${this.#client.http.label}: ${root.subject} version ${root.version} (id ${root.id}): ${problem}`,
      cause !== undefined ? { cause } : {},
    );
  }
}
