#!/usr/bin/env bash
# Makes `prometheus` and `promtool` available for the rule unit tests and the end-to-end tests.
# They come from Debian's `prometheus` package; the script does nothing when both are already on PATH,
# so .ci/run and developers can call it on every run.
#
# The package's service is never started: tests start their own Prometheus on 127.0.0.1 with a
# temporary storage folder (test/helpers/prometheus.ts). Recommends are skipped because they would
# pull in prometheus-node-exporter, another daemon that nothing here needs.
set -euo pipefail

if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
else
  sudo_cmd=()
fi

echo "schemawatch: installing Debian's prometheus package (prometheus, promtool)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
# A policy-rc.d that answers 101 keeps the package from starting its daemon on :9090 where the
# machine has no such policy already (container images usually do).
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" >/dev/null
  "${sudo_cmd[@]}" chmod 755 "$policy"
  created_policy=1
fi
status=0
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends prometheus >/dev/null || status=$?
if [ "$created_policy" -eq 1 ]; then
  "${sudo_cmd[@]}" rm -f "$policy"
fi
if [ "$status" -ne 0 ]; then
  echo "schemawatch: apt-get install prometheus failed (exit $status)" >&2
  exit "$status"
fi

prometheus --version 2>&1 | head -n 1 >&2
promtool --version 2>&1 | head -n 1 >&2
