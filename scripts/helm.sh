#!/usr/bin/env bash
# Makes `helm` available for the chart tests (test/unit/ops/helm-chart.test.ts), which run
# `helm lint` and `helm template` on deploy/helm/schemawatch: no cluster is contacted. Helm is built
# from its Go module (helm.sh/helm/v4, pinned below) with the Go toolchain the machine has; the
# script does nothing when a helm of that major version is already on PATH, so .ci/run and
# developers can call it on every run. A first build on 2 shared cores takes several minutes
# (BENCHMARKS.md, "Helm"), seconds once Go's module and build caches hold it.
set -euo pipefail

HELM_MODULE="helm.sh/helm/v4"
HELM_VERSION="v4.3.2"

if command -v helm >/dev/null 2>&1 && helm version --template '{{.Version}}' 2>/dev/null | grep -q '^v4\.'; then
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "schemawatch: helm needs Go to build (go install $HELM_MODULE/cmd/helm@$HELM_VERSION); no go on PATH" >&2
  exit 1
fi

# /usr/local/bin when root (CI), else Go's own bin folder, which the caller puts on PATH.
if [ "$(id -u)" -eq 0 ]; then
  bin="${HELM_BIN_DIR:-/usr/local/bin}"
else
  bin="${HELM_BIN_DIR:-$(go env GOPATH)/bin}"
fi

echo "schemawatch: building helm $HELM_VERSION from $HELM_MODULE into $bin (helm lint/template check deploy/helm)" >&2
start=$(date +%s)
status=0
GOBIN="$bin" CGO_ENABLED=0 GOFLAGS=-mod=mod go install "$HELM_MODULE/cmd/helm@$HELM_VERSION" || status=$?
if [ "$status" -ne 0 ]; then
  echo "schemawatch: go install $HELM_MODULE/cmd/helm@$HELM_VERSION failed (exit $status)" >&2
  exit "$status"
fi
echo "schemawatch: helm built in $(($(date +%s) - start)) s" >&2
"$bin/helm" version --short >&2
