import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { ConfigMap, Service, ServiceAccount } from "kubernetes-models/v1";
import { Deployment } from "kubernetes-models/apps/v1";
import {
  PrometheusRule,
  ServiceMonitor,
} from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
import ts from "typescript";
import { parseAllDocuments } from "yaml";

/** One rendered Kubernetes object, as kustomize printed it. */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly [field: string]: unknown;
}

/**
 * Renders a kustomization with the real kustomize: a `kustomize` binary, else the one built into
 * kubectl (`kubectl kustomize`, kustomize v5 in current kubectl). Neither is a failure, not a skip.
 */
export function kustomize(dir: string): Manifest[] {
  const attempts: [string, string[]][] = [
    ["kustomize", ["build", dir]],
    ["kubectl", ["kustomize", dir]],
  ];
  const tried: string[] = [];
  for (const [tool, args] of attempts) {
    const run = spawnSync(tool, args, { encoding: "utf8" });
    if (run.error !== undefined) {
      tried.push(`${tool}: ${run.error.message}`);
      continue;
    }
    if (run.status !== 0) throw new Error(`${tool} ${args.join(" ")} failed:\n${run.stderr}`);
    return parseAllDocuments(run.stdout).map((doc) => doc.toJS() as Manifest);
  }
  throw new Error(
    "no kustomize to render deploy/kubernetes with: install kubectl, which includes it " +
      "(scripts/kubectl.sh does, from apt), or put a kustomize binary on PATH " +
      `(go install sigs.k8s.io/kustomize/kustomize/v5@latest)\n${tried.join("\n")}`,
  );
}

interface Kind {
  /** the model that validates against the published OpenAPI schema */
  readonly validate: (object: Manifest) => void;
  /** the TypeScript interface of the same schema, for the unknown-field check */
  readonly type: string;
  readonly module: string;
}

const KINDS: Readonly<Record<string, Kind>> = {
  "v1/ConfigMap": {
    validate: (o) => new ConfigMap(o as never).validate(),
    type: "IConfigMap",
    module: "kubernetes-models/v1/ConfigMap",
  },
  "v1/Service": {
    validate: (o) => new Service(o as never).validate(),
    type: "IService",
    module: "kubernetes-models/v1/Service",
  },
  "v1/ServiceAccount": {
    validate: (o) => new ServiceAccount(o as never).validate(),
    type: "IServiceAccount",
    module: "kubernetes-models/v1/ServiceAccount",
  },
  "apps/v1/Deployment": {
    validate: (o) => new Deployment(o as never).validate(),
    type: "IDeployment",
    module: "kubernetes-models/apps/v1/Deployment",
  },
  "monitoring.coreos.com/v1/ServiceMonitor": {
    validate: (o) => new ServiceMonitor(o as never).validate(),
    type: "IServiceMonitor",
    module: "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor",
  },
  "monitoring.coreos.com/v1/PrometheusRule": {
    validate: (o) => new PrometheusRule(o as never).validate(),
    type: "IPrometheusRule",
    module: "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule",
  },
};

function kindOf(object: Manifest): Kind {
  const kind = KINDS[`${object.apiVersion}/${object.kind}`];
  if (kind === undefined) throw new Error(`no schema known for ${object.apiVersion} ${object.kind}`);
  return kind;
}

/** Validates against the schema of the object's kind; throws with the schema errors. */
export function validateManifest(object: Manifest): void {
  kindOf(object).validate(object);
}

/**
 * Fields the schemas do not know. The published OpenAPI schemas leave objects open, so a misspelt
 * `readOnlyRootFileSystem` passes them (and the API server would drop or reject it); TypeScript's excess
 * property check on the same schemas' interfaces catches it. The objects are type-checked as literals in
 * a file that exists only in memory, beside this one so that node_modules resolves.
 */
export function unknownFields(objects: readonly Manifest[]): string[] {
  const fileName = resolve("test/unit/ops/__rendered_manifests__.ts");
  const imports = new Map<string, string>();
  const lines = objects.map((object, index) => {
    const kind = kindOf(object);
    imports.set(kind.type, kind.module);
    return `export const m${index}: ${kind.type} = ${JSON.stringify(object, null, 2)};`;
  });
  const source = [
    ...[...imports].map(([type, module]) => `import type { ${type} } from "${module}";`),
    ...lines,
  ].join("\n");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file !== undefined && d.start !== undefined
        ? `line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
        : "";
    const object = where === "" ? "" : nearestObject(source, d.start ?? 0);
    return `${object}${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

/** Names the rendered object a diagnostic falls in, since the in-memory file has no useful lines. */
function nearestObject(source: string, position: number): string {
  const before = source.slice(0, position);
  const at = before.lastIndexOf("export const m");
  const kind = /"kind": "(\w+)"/.exec(source.slice(at))?.[1] ?? "?";
  const name = /"name": "([^"]+)"/.exec(source.slice(at))?.[1] ?? "?";
  return `${kind} ${name}, `;
}
