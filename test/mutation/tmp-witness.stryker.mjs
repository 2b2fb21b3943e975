import { readFileSync } from "node:fs";
const base = JSON.parse(readFileSync(new globalThis.URL("./stryker.config.json", import.meta.url), "utf8"));
delete base.$schema;
export default {
  ...base,
  vitest: { configFile: "test/mutation/tmp-witness.vitest.config.ts", related: false },
  mutate: ["src/diff/witness/targeted.ts"],
};
