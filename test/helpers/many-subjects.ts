import { writeTree } from "./files.js";

/** What {@link writeManySubjects} makes: a config and a capture in a temp folder removed after the test. */
export interface ManySubjects {
  readonly dir: string;
  readonly config: string;
  readonly capture: string;
  /** Subject names, in the order of the config: `s000`, `s001`, … */
  readonly subjects: readonly string[];
  readonly records: number;
}

export interface ManySubjectsOptions {
  readonly subjects?: number;
  readonly records?: number;
  /** Add `corpus: { enabled, serve }` to the config. */
  readonly corpus?: { readonly enabled: boolean; readonly serve: boolean };
}

const pad = (n: number) => String(n).padStart(3, "0");
const PRODUCERS = ["web", "mobile", "batch"];

/**
 * A catalog of many small subjects (each on its own topic, with versions 1.0.0 deprecated, 1.1.0
 * active and 2.0.0 candidate, as the article's story) and a capture spread over them: the shape of a
 * monitor watching a whole cluster, for the status page's size and speed. Deterministic: the same
 * options write the same files.
 */
export async function writeManySubjects(options: ManySubjectsOptions = {}): Promise<ManySubjects> {
  const count = options.subjects ?? 200;
  const records = options.records ?? 3000;
  const subjects = Array.from({ length: count }, (_, i) => `s${pad(i)}`);
  const files: Record<string, unknown> = {};
  const schema = (version: string, required: string[], closed: boolean) => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: version,
    type: "object",
    properties: {
      id: { type: "integer" },
      kind: { enum: ["a", "b"] },
      // 1.0 knows no amount (and is closed): 1.1 added it.
      ...(version === "1.0" ? {} : { amount: { type: "number" } }),
    },
    required,
    ...(closed ? { additionalProperties: false } : {}),
  });
  const config = ["http:", "  host: 127.0.0.1", "  port: 0", "subjects:"];
  for (const name of subjects) {
    files[`catalog/${name}/1.0.json`] = schema("1.0", ["id"], true);
    files[`catalog/${name}/1.1.json`] = schema("1.1", ["id"], false);
    files[`catalog/${name}/2.0.json`] = schema("2.0", ["id", "amount"], false);
    config.push(
      `  - name: ${name}`,
      `    topics: [t-${name}]`,
      `    schemas: catalog/${name}`,
      "    versions:",
      '      "1.0.0": { status: deprecated, deprecatedSince: "2026-11-01" }',
      '      "1.1.0": { status: active }',
      '      "2.0.0": { status: candidate }',
      "    writer: { sources: [header], header: schema-version }",
      "    producer: { header: producer }",
    );
  }
  if (options.corpus)
    config.push("corpus:", `  enabled: ${options.corpus.enabled}`, `  serve: ${options.corpus.serve}`);
  const lines: string[] = [];
  const offsets = new Map<string, number>();
  for (let i = 0; i < records; i++) {
    // Round robin over the subjects (7 is prime to the counts used), round after round.
    const k = (i * 7) % count;
    const round = Math.floor(i / count);
    const subject = subjects[k]!;
    const topic = `t-${subject}`;
    const offset = offsets.get(topic) ?? 0;
    offsets.set(topic, offset + 1);
    // Every fifth round an old producer sends 1.0; on every fourth subject, 1.1 records that carry
    // an amount, which the closed 1.0 rejects: forward-incompatible traffic that needs attention.
    const writer = round % 5 === 0 ? "1.0" : "1.1";
    const value =
      writer === "1.0"
        ? { id: i, kind: "a" }
        : k % 4 === 0 && round % 3 !== 0
          ? { id: i, amount: i }
          : { id: i, kind: "b" };
    lines.push(
      JSON.stringify({
        topic,
        partition: 0,
        offset,
        timestamp: Date.UTC(2026, 11, 1, 8) + i * 100,
        headers: { producer: PRODUCERS[round % PRODUCERS.length], "schema-version": `${subject}/${writer}` },
        value,
      }),
    );
  }
  files["config.yaml"] = config.join("\n") + "\n";
  files["capture.ndjson"] = lines.join("\n") + "\n";
  const dir = await writeTree(files);
  return { dir, config: `${dir}/config.yaml`, capture: `${dir}/capture.ndjson`, subjects, records };
}
