// One file of src/diff/ at a time, against the diff's tests only (test/mutation/vitest.diff.config.ts):
//   npx stryker run test/mutation/stryker.diff.config.mjs --mutate src/diff/members.ts
import { readFileSync } from "node:fs";

const base = JSON.parse(readFileSync(new globalThis.URL("./stryker.config.json", import.meta.url), "utf8"));
delete base.$schema;

export default {
  ...base,
  vitest: { configFile: "test/mutation/vitest.diff.config.ts", related: false },
  mutate: ["src/diff/members.ts"],
};
