import { loadCatalog } from "../../src/catalog/load.js";
import { parseConfig } from "../../src/config/load.js";
import { Health } from "../../src/health/health.js";
import { Pipeline } from "../../src/pipeline/pipeline.js";
import { buildReport } from "../../src/report/model.js";
import { buildStatus } from "../../src/report/status.js";
import { writeTree } from "./files.js";
import { record } from "./monitor.js";

/**
 * The pipeline of a subject `pay` on the topic `pay` from two schema files of one format (`1.0.EXT`
 * deprecated unless `v1Status` says otherwise, Confluent id 11; `2.0.EXT` active, id 12), sampling at
 * `ratio`, `extra` YAML after the subject, `files` more files under `schemas/pay` (what the versions
 * import); `send` hands it a producer's record, `unread` lists what its
 * `unreadable` hook heard, `report` builds the report of what it counted.
 */
export async function payFilesPipeline(
  ext: string,
  schemas: { readonly v1: unknown; readonly v2: unknown },
  options: {
    ratio?: number;
    extra?: string;
    v1Status?: "active" | "deprecated";
    files?: Readonly<Record<string, string>>;
  } = {},
) {
  const yaml = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: ${options.ratio ?? 1} }
    versions:
      "1.0": { status: ${options.v1Status ?? "deprecated"}, confluentId: 11 }
      "2.0": { status: active, confluentId: 12 }
${options.extra ?? ""}`;
  const dir = await writeTree({
    [`schemas/pay/1.0.${ext}`]: schemas.v1,
    [`schemas/pay/2.0.${ext}`]: schemas.v2,
    ...Object.fromEntries(
      Object.entries(options.files ?? {}).map(([path, text]) => [`schemas/pay/${path}`, text]),
    ),
    "config.yaml": yaml,
  });
  const config = parseConfig(yaml, `${dir}/config.yaml`);
  const unread: string[] = [];
  const catalog = await loadCatalog(config);
  const pipeline = new Pipeline(catalog, config, {
    unreadable: [
      (_p, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
    ],
  });
  const send = (producer: string, raw: Buffer) =>
    pipeline.process(record(undefined, { producer }, { raw, topic: "pay" }));
  /** The report of what was sent, as `schemawatch report` builds it (a monitor not yet ready). */
  const report = () => buildReport(buildStatus(catalog, pipeline, new Health()), pipeline.tallies, undefined);
  return { pipeline, send, unread, report };
}
