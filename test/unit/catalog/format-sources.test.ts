import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { writeTree } from "../../helpers/files.js";

const PAY = { type: "record", name: "Pay", fields: [{ name: "id", type: "long" }] };

async function load(extra: string) {
  const yaml = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
${extra}`;
  const dir = await writeTree({ "schemas/pay/1.0.avsc": PAY, "config.yaml": yaml });
  return { dir, load: () => loadCatalog(parseConfig(yaml, `${dir}/config.yaml`)) };
}

describe("the sources an Avro subject may have", () => {
  it("refuses a configured writer pointer, which would decode every record, naming the config and subject", async () => {
    const { dir, load: run } = await load("    writer: { sources: [wire, pointer] }\n");
    await expect(run()).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(
        new RegExp(`^${dir}/config\\.yaml: subject pay is avro: writer\\.sources cannot include pointer`),
      ),
    });
  });

  it("refuses a producer pointer", async () => {
    const { dir, load: run } = await load("    producer: { pointer: /source }\n");
    await expect(run()).rejects.toThrow(
      `${dir}/config.yaml: subject pay is avro: producer.pointer cannot be used`,
    );
  });

  it("takes the default writer order, whose pointer it leaves out", async () => {
    const { load: run } = await load("");
    expect((await run()).subjects.get("pay")!.format.name).toBe("avro");
  });
});
