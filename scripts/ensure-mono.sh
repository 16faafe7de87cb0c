#!/usr/bin/env bash
# Makes sure Mono's runtime, the mcs compiler and Mono.Debugger.Soft.dll (the reference SDB
# client) are installed; installs the Debian packages when one is missing. Idempotent and silent
# when everything is present, so build scripts can call it on every run.
set -euo pipefail

missing=0
command -v mono >/dev/null 2>&1 || missing=1
command -v mcs >/dev/null 2>&1 || missing=1
if [ ! -e /usr/lib/mono/4.5/Mono.Debugger.Soft.dll ] &&
  ! compgen -G '/usr/lib/mono/gac/Mono.Debugger.Soft/*/Mono.Debugger.Soft.dll' >/dev/null; then
  missing=1
fi
[ "$missing" -eq 0 ] && exit 0

packages=(mono-runtime mono-mcs libmono-debugger-soft4.0a-cil)
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-mono: mono/mcs/Mono.Debugger.Soft missing and apt-get is unavailable; install: ${packages[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
echo "ensure-mono: installing ${packages[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# A stale package index makes install fail with 404s; refresh it once and retry.
if ! "${sudo[@]}" apt-get install -y "${packages[@]}" >&2; then
  "${sudo[@]}" apt-get update >&2
  "${sudo[@]}" apt-get install -y "${packages[@]}" >&2
fi
