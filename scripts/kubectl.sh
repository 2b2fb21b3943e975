#!/usr/bin/env bash
# Makes `kubectl` available for the manifest tests (test/unit/ops/manifests.test.ts, test/unit/ops/memory.test.ts),
# which render deploy/kubernetes with `kubectl kustomize` (kustomize v5 is built into kubectl): no
# cluster is contacted. It comes from the `kubectl` package of the machine's apt sources; the script
# does nothing when kubectl is already on PATH, so .ci/run and developers can call it on every run.
set -euo pipefail

if command -v kubectl >/dev/null 2>&1; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
else
  sudo_cmd=()
fi

echo "schemawatch: installing the kubectl package (kubectl kustomize renders deploy/kubernetes)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
status=0
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends kubectl >/dev/null || status=$?
if [ "$status" -ne 0 ]; then
  echo "schemawatch: apt-get install kubectl failed (exit $status)" >&2
  exit "$status"
fi

kubectl version --client 2>&1 | head -n 2 >&2
