// Writes grafana/dashboards/schemawatch.json from the dashboard code, and the Helm chart's copy of it
// (deploy/helm/schemawatch/files/, which a chart cannot read from outside its folder):
//   node grafana/src/build.ts           (write)
//   node grafana/src/build.ts --check   (exit 1 when the committed JSON is stale)
// Runs on Node.js 24's type stripping, which resolves imports by their real file name; the project's
// sources import each other with `.js` suffixes (as tsc requires), so a resolve hook maps a relative
// `.js` that does not exist to the `.ts` beside it.
import { readFile, writeFile } from "node:fs/promises";
import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});

const { CHART_DASHBOARD_PATH, DASHBOARD_PATH, dashboardJson } = await import("./dashboard.js");
const fresh = dashboardJson();

for (const path of [DASHBOARD_PATH, CHART_DASHBOARD_PATH]) {
  const target = fileURLToPath(new URL(`../../${path}`, import.meta.url));
  if (process.argv.includes("--check")) {
    const committed = await readFile(target, "utf8").catch(() => "");
    if (committed !== fresh) {
      console.error(`${path} is stale: run 'node grafana/src/build.ts' and commit the result`);
      process.exitCode = 1;
    }
  } else {
    await writeFile(target, fresh);
    console.log(`wrote ${path}`);
  }
}
