#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed at /usr/bin/chromium: the dashboard's browser test
# (test-integration/dashboard.test.ts) drives it with puppeteer-core, which downloads no browser.
# Installs the Debian package when it is missing; idempotent and silent when it is present.
set -euo pipefail

if [ -x /usr/bin/chromium ] && /usr/bin/chromium --version >/dev/null 2>&1; then
  exit 0
fi

packages=(chromium)
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: /usr/bin/chromium missing and apt-get is unavailable; install: ${packages[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
echo "ensure-chromium: installing ${packages[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# A stale package index makes install fail with 404s; refresh it once and retry.
if ! "${sudo[@]}" apt-get install -y "${packages[@]}" >&2; then
  "${sudo[@]}" apt-get update >&2
  "${sudo[@]}" apt-get install -y "${packages[@]}" >&2
fi
