import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The rooms and who may enter them (docs/architecture.md, "Rooms"). A rule names the folders a room
// must not import; `npm run lint` fails on a violation, so the layering holds as the code grows.
const room = (folders) => folders.flatMap((f) => [`../${f}/*`, `../../${f}/*`, `../../../${f}/*`]);
const restrict = (files, folders, why) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { patterns: [{ group: room(folders), message: why }] }],
  },
});
const ABOVE_PIPELINE = [
  "monitor",
  "cli",
  "kafka",
  "source",
  "lifecycle",
  "state",
  "report",
  "metrics",
  "http",
  "corpus",
  "diff",
  "offline",
  "health",
  "fields",
  "stats",
  "history",
];
const LAYERS = [
  // Nothing imports the composition root but the entry point (src/cli/, which calls it).
  restrict(
    ["src/!(cli|monitor)/**/*.ts", "src/*.ts"],
    ["monitor"],
    "nothing imports the composition root (src/monitor/): receive what you need as arguments",
  ),
  restrict(
    ["src/pipeline/**/*.ts"],
    ABOVE_PIPELINE,
    "the per-record path imports only catalog, engine and config (and the root's small modules): hand it hooks as constructor arguments",
  ),
  restrict(
    ["src/lifecycle/**/*.ts"],
    [...ABOVE_PIPELINE.filter((f) => f !== "lifecycle"), "pipeline", "registry"],
    "verdicts know no Kafka: src/lifecycle/ imports only catalog, engine and config; what it reads of the world comes as an Observation",
  ),
  restrict(
    ["src/{catalog,engine,config}/**/*.ts"],
    [...ABOVE_PIPELINE, "pipeline", "registry"],
    "catalog, engine and config are the ground floor: they import nothing above them",
  ),
  restrict(
    ["src/formats/**/*.ts"],
    [...ABOVE_PIPELINE, "pipeline", "registry"],
    "formats are on the ground floor under the catalog: they import only types from catalog, engine and config (catalog/load.ts imports their values)",
  ),
  restrict(
    ["src/health/**/*.ts"],
    ABOVE_PIPELINE.filter((f) => f !== "health").concat(["pipeline"]),
    "health is read by everyone and imports no room that writes it",
  ),
];

// kafkajs's private modules and the patches that use them live in one room (src/kafka/patches/,
// docs/architecture.md "kafkajs patches"); everything else reaches it through its index.ts only.
// A selector's regex cannot hold a slash, hence the dots.
const PATCHES_ROOM = {
  files: ["src/**/*.ts"],
  ignores: ["src/kafka/patches/**"],
  rules: {
    "no-restricted-syntax": [
      "error",
      {
        selector: ":matches(Literal[value=/^kafkajs.src./], TemplateElement[value.raw=/^kafkajs.src./])",
        message:
          "kafkajs's private modules are named in src/kafka/patches/ only (kafkajs.ts): add the adaptation there",
      },
      {
        selector:
          ":matches(ImportDeclaration, ImportExpression, ExportNamedDeclaration, ExportAllDeclaration)[source.value=/patches.(?!index.js$)/]",
        message: "src/kafka/patches/ is entered through its index.ts: export what you need from there",
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "coverage/",
      "grafana/dashboards/",
      "reports/",
      ".stryker-tmp/",
      // ajv standalone code, generated (test/unit/config/config-validator.test.ts)
      "src/config/config-validator.generated.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
      // noUncheckedIndexedAccess makes every indexed read optional; in bounded loops `!` is the honest form.
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["**/*.js"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        fetch: "readonly",
        globalThis: "readonly",
      },
    },
  },
  ...LAYERS,
  PATCHES_ROOM,
);
