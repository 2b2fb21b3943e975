import type { SchemaCompiler } from "../catalog/compiler.js";
import type { Config } from "../config/types.js";
import { buildCatalog, type BuiltCatalog } from "./catalog.js";
import { connectRegistry } from "./connect.js";
import type { Env } from "./secrets.js";
import { SnapshotReader } from "./snapshot.js";
import type { SubjectSnapshot } from "./types.js";

/**
 * The catalog of a config as a command sees it once: the schema files, and every registry subject
 * read from its registry now (a registry that does not answer is an error, not an empty subject).
 * Built with the monitor's own builder.
 */
export async function readCatalog(
  config: Config,
  env: Env,
  compiler?: SchemaCompiler,
): Promise<BuiltCatalog> {
  const snapshots: SubjectSnapshot[] = [];
  const readers = new Map<string, SnapshotReader>();
  try {
    for (const subject of config.subjects) {
      const registry = subject.registry;
      if (!registry) continue;
      let reader = readers.get(registry.name);
      if (!reader) {
        reader = new SnapshotReader(
          registry.name,
          await connectRegistry(config.registries[registry.name]!, env),
        );
        readers.set(registry.name, reader);
      }
      snapshots.push(await reader.read(registry.subject));
    }
  } finally {
    for (const reader of readers.values()) reader.client.http.close();
  }
  return buildCatalog(config, snapshots, compiler ? { compiler } : {});
}
