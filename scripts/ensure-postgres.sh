#!/usr/bin/env bash
# The PostgreSQL tests start their own server from Debian's `postgresql` package (initdb + pg_ctl in a temp
# directory; test/helpers/postgres-cluster.ts). Installs the package when missing and we may (root or
# passwordless sudo); otherwise says what to run.
set -euo pipefail
if [ -n "${RATEDESK_PG_BIN:-}" ] && [ -x "$RATEDESK_PG_BIN/initdb" ]; then exit 0; fi
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "PostgreSQL is needed for the company-server tests: sudo apt-get install -y postgresql (or set RATEDESK_PG_BIN)." >&2
    exit 1
  fi
fi
echo "Installing Debian's postgresql for the company-server tests…"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
# Debian starts a cluster of its own on 5432; the tests never use it (they start theirs on a free port).
