#!/usr/bin/env bash
# Makes Debian's Chromium (/usr/bin/chromium) available for the browser test of the status page
# (test/integration/e2e/status-page.test.ts), which drives it with playwright-core: no browser is ever downloaded.
# Does nothing when it is already installed, so .ci/run and developers can call it on every run.
#
# Recommends are skipped (they pull in printing and desktop notification services nothing here
# needs); fonts-liberation is named so that the page and its screenshot render with real fonts.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
else
  sudo_cmd=()
fi

echo "schemawatch: installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
status=0
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null || status=$?
if [ "$status" -ne 0 ]; then
  echo "schemawatch: apt-get install chromium failed (exit $status)" >&2
  exit "$status"
fi

/usr/bin/chromium --version 2>&1 | head -n 1 >&2
