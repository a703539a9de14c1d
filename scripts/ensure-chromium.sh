#!/usr/bin/env bash
# The e2e tests drive Debian's Chromium (Playwright never downloads a browser here). Installs it with apt
# when missing and we may (root or passwordless sudo); otherwise says what to run.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "Chromium is needed for the e2e tests: sudo apt-get install -y chromium (or set CHROMIUM_PATH)." >&2
    exit 1
  fi
fi
echo "Installing Debian's chromium for the e2e tests…"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
