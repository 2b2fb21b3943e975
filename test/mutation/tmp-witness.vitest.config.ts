import { defineConfig } from "vitest/config";
import unit from "./vitest.unit.config.js";

export default defineConfig({
  test: { ...unit.test, include: ["test/unit/diff/witness/**/*.test.ts"] },
});
