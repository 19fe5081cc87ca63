#!/usr/bin/env bash
# Every test of Periscope, with what the tests need prepared first: the README's test command, and the one
# .ci/run calls.
#
#   scripts/test.sh              prepare, then `mvn verify`: every test, the browser's included
#   scripts/test.sh --check      prepare and check, run no test
#   scripts/test.sh ARGS...      prepare, then `mvn ARGS...` (for instance `verify -Dit.test=ClusterIT`)
#
# Chromium: CHROME_BIN and CHROMEDRIVER when set, else the distribution's /usr/bin/chromium and
# /usr/bin/chromedriver. When those are missing, the distribution's packages are installed where this user can
# (root with apt-get: Debian, Ubuntu); otherwise the script stops before any test with what to install. Nothing
# is ever downloaded from a browser's vendor.
#
# PostgreSQL is the tests' own business, so that `mvn test -Dtest=...` finds it the same way
# (src/test/java/io/periscope/testing/TestPostgres.java): PERISCOPE_TEST_DATABASE_URL when set, else the server
# at 127.0.0.1:5432 when it answers, else a real PostgreSQL from Maven Central's binaries, its data under
# target/, stopped when the tests end.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "test.sh: $*" >&2
  exit 1
}

command -v java >/dev/null || fail "no java on PATH: install a JDK 17 or later"
command -v mvn >/dev/null || fail "no mvn on PATH: install Apache Maven 3.8 or later"

chromium=${CHROME_BIN:-/usr/bin/chromium}
chromedriver=${CHROMEDRIVER:-/usr/bin/chromedriver}

# A path named by CHROME_BIN or CHROMEDRIVER is the user's choice: it is checked, never installed for.
[ -z "${CHROME_BIN:-}" ] || [ -x "$chromium" ] ||
  fail "CHROME_BIN=$chromium is not an executable file: point it at Chromium, or unset it to use /usr/bin/chromium"
[ -z "${CHROMEDRIVER:-}" ] || [ -x "$chromedriver" ] ||
  fail "CHROMEDRIVER=$chromedriver is not an executable file: point it at Chromium's chromedriver, or unset it to use /usr/bin/chromedriver"

if [ ! -x "$chromium" ] || [ ! -x "$chromedriver" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test.sh: installing the distribution's chromium and chromium-driver for the browser tests" >&2
    apt-get update -q >&2 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >&2 ||
      fail "apt-get could not install chromium and chromium-driver: install them, or set CHROME_BIN and CHROMEDRIVER"
  elif command -v apt-get >/dev/null; then
    fail "the browser tests need Chromium and its driver: sudo apt-get install chromium chromium-driver (or set CHROME_BIN and CHROMEDRIVER)"
  else
    fail "the browser tests need Chromium and its driver: install Chromium and chromedriver from your system's packages and set CHROME_BIN and CHROMEDRIVER to them"
  fi
  [ -x "$chromium" ] && [ -x "$chromedriver" ] ||
    fail "chromium and chromium-driver are installed but $chromium or $chromedriver is missing: set CHROME_BIN and CHROMEDRIVER"
fi
export CHROME_BIN=$chromium CHROMEDRIVER=$chromedriver

# The manifests' tests render k8s/ with `kubectl kustomize` and check its alert rules with Prometheus's promtool.
# promtool, when missing, is unpacked from the distribution's prometheus package under target/tools (nothing is
# installed and no service started). kubectl has no usable distribution package (Debian's is too old for the
# overlays), so it is only asked for.
if ! command -v promtool >/dev/null; then
  tools=$PWD/target/tools
  if [ ! -x "$tools/usr/bin/promtool" ]; then
    command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
      fail "the manifests' tests need Prometheus's promtool: install it and put it on PATH"
    echo "test.sh: unpacking promtool from the distribution's prometheus package into target/tools" >&2
    mkdir -p "$tools/deb"
    (cd "$tools/deb" && { apt-get download -q prometheus >&2 ||
      { [ "$(id -u)" = 0 ] && apt-get update -q >&2 && apt-get download -q prometheus >&2; }; }) &&
      dpkg -x "$tools"/deb/prometheus_*.deb "$tools" ||
      fail "apt-get could not download the prometheus package: install promtool (apt-get install prometheus)"
  fi
  export PATH=$tools/usr/bin:$PATH
fi
command -v kubectl >/dev/null ||
  fail "the manifests' tests need a current kubectl on PATH (Debian's 1.20 is too old for kubectl kustomize): https://kubernetes.io/docs/tasks/tools/"

# The manifests' schemas (KubernetesSchemasTest): the kubernetes-models packages that
# src/test/k8s-schemas/package-lock.json pins, installed beside it by npm (node_modules is not committed), again
# only when the lock file changed. Node.js and npm from the distribution's packages where this user can.
schemas=src/test/k8s-schemas
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test.sh: installing the distribution's nodejs and npm for the manifests' schemas" >&2
    apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm >&2 ||
      fail "apt-get could not install nodejs and npm: install them"
  fi
  command -v node >/dev/null && command -v npm >/dev/null ||
    fail "the manifests' schema test needs Node.js and npm: apt-get install nodejs npm"
fi
if ! cmp -s "$schemas/package-lock.json" "$schemas/node_modules/.installed-lock.json"; then
  echo "test.sh: installing the Kubernetes schemas of $schemas/package-lock.json with npm ci" >&2
  npm ci --prefix "$schemas" --no-audit --no-fund --loglevel=error >&2 ||
    fail "npm ci could not install the Kubernetes schemas of $schemas/package-lock.json"
  cp "$schemas/package-lock.json" "$schemas/node_modules/.installed-lock.json"
fi

# The backup drill (BackupRestoreTest) runs pg_dump and pg_restore, of the test server's major version or newer
# (the embedded fallback server is PostgreSQL 15, the client Debian 12 packages); the image's health check
# (DockerfileTest) runs curl. Installed from the distribution's packages where this user can, as Chromium is.
if ! command -v pg_dump >/dev/null || ! command -v pg_restore >/dev/null || ! command -v curl >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test.sh: installing the distribution's postgresql-client and curl for the backup drill and the health check" >&2
    apt-get update -q >&2 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-client curl >&2 ||
      fail "apt-get could not install postgresql-client and curl: install them"
  fi
  for tool in pg_dump pg_restore curl; do
    command -v "$tool" >/dev/null ||
      fail "the backup drill and the image's health check need $tool: apt-get install postgresql-client curl"
  done
fi

if [ "${1:-}" = --check ]; then
  echo "test.sh: ready: Chromium $chromium, chromedriver $chromedriver, $(command -v promtool), $(command -v kubectl), the Kubernetes schemas in $schemas; the tests find or start PostgreSQL"
  exit 0
fi

[ $# -gt 0 ] || set -- verify
# CI reads the log: no colours, no download progress
exec mvn ${CI:+--batch-mode --no-transfer-progress} "$@"
