import { spawnSync } from "node:child_process";
import { parseAllDocuments } from "yaml";
import type { Manifest } from "./kubernetes.js";

export const CHART = "deploy/helm/schemawatch";

/** Runs the real helm (scripts/helm.sh builds it); a missing helm is a failure, not a skip. */
export function helm(args: readonly string[]): { status: number; stdout: string; stderr: string } {
  const run = spawnSync(process.env["HELM"] ?? "helm", args, { encoding: "utf8" });
  if (run.error !== undefined)
    throw new Error(
      `no helm to check ${CHART} with: run scripts/helm.sh (it builds helm.sh/helm/v4 with go install), ` +
        `or set HELM to a helm v4 binary\n${run.error.message}`,
    );
  return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

/** `helm template RELEASE CHART` with `--set` pairs: every object it renders. */
export function helmTemplate(release: string, set: readonly string[] = []): Manifest[] {
  const args = ["template", release, CHART, "--namespace", "monitoring", ...set.flatMap((s) => ["--set", s])];
  const run = helm(args);
  if (run.status !== 0) throw new Error(`helm ${args.join(" ")} failed:\n${run.stderr}`);
  return parseAllDocuments(run.stdout)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((o): o is Manifest => o !== null);
}
