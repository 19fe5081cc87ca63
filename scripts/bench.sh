#!/usr/bin/env bash
# End-to-end load benchmark of Periscope on this machine, on the embedded H2 journal and on PostgreSQL.
#
# For each backend: starts target/periscope.jar on a fresh temporary DATA_DIR (and, for PostgreSQL, a scratch
# database), measures the ready time (process start -> first 200 from /health) and the idle resident memory
# (VmRSS after start-up and IDLE seconds of idleness), creates the bench account(s) with the command line, runs
# io.periscope.bench.LoadDriver (health, authenticated read, create with one owner, then create spread over
# OWNERS owners), stops the service with SIGTERM and removes everything it created.
#
# Only 127.0.0.1 is targeted, every wait is bounded, and the script stops by itself.
#
# Knobs (environment):   CLIENTS=32 DURATION=20 WARMUP=5 IDLE=10 OWNERS=4 BACKENDS="h2 postgres"
#                        H2_PORT=18090 PG_PORT=18091 (HTTP), REMOTE_PORT_BASE=18095 (Pekko remoting)
#                        PGHOST=127.0.0.1 PGUSER=postgres, SERVICE_JAVA_OPTS= (extra JVM flags for the service)
#                        BENCH_REF=<git rev>: benchmark that commit instead of the working tree (exported with
#                        git archive into a temporary directory and built there; the working tree is untouched)
# Output: a table on stdout and target/bench/<timestamp>/{results.tsv,summary.txt,*.log}.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)

CLIENTS=${CLIENTS:-32}
SECONDS_MEASURED=${DURATION:-20}  # not SECONDS: bash owns that name
WARMUP=${WARMUP:-5}
IDLE=${IDLE:-10}
OWNERS=${OWNERS:-4}
BACKENDS=${BACKENDS:-"h2 postgres"}
H2_PORT=${H2_PORT:-18090}
PG_PORT=${PG_PORT:-18091}
REMOTE_PORT_BASE=${REMOTE_PORT_BASE:-18095}
PGHOST=${PGHOST:-127.0.0.1}
PGUSER=${PGUSER:-postgres}
SERVICE_JAVA_OPTS=${SERVICE_JAVA_OPTS:-}
BENCH_REF=${BENCH_REF:-}
PASSWORD='Bench-pass-phrase-1!'
JAR=target/periscope.jar
CP="$JAR:target/test-classes"

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT="$ROOT/target/bench/$STAMP"
mkdir -p "$OUT"
TSV="$OUT/results.tsv"
SUMMARY="$OUT/summary.txt"
: > "$TSV"
: > "$SUMMARY"

log() { echo "[bench $(date -u +%H:%M:%S)] $*" >&2; }

# ---- cleanup: only what this script started ----------------------------------------------------
SERVICE_PID=""
DATA_DIR=""
DB_NAME=""
REF_DIR=""
cleanup() {
  if [[ -n "$SERVICE_PID" ]] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill -TERM "$SERVICE_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$SERVICE_PID" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$SERVICE_PID" 2>/dev/null && kill -KILL "$SERVICE_PID" 2>/dev/null || true
  fi
  SERVICE_PID=""
  if [[ -n "$DB_NAME" ]]; then
    psql -h "$PGHOST" -U "$PGUSER" -q -c "drop database if exists $DB_NAME" >/dev/null 2>&1 || true
    DB_NAME=""
  fi
  if [[ -n "$DATA_DIR" && -d "$DATA_DIR" ]]; then rm -rf "$DATA_DIR"; fi
  DATA_DIR=""
}
trap 'cleanup; [[ -n "$REF_DIR" ]] && rm -rf "$REF_DIR"; true' EXIT
trap 'exit 130' INT TERM

# ---- build ---------------------------------------------------------------------------------------
if [[ -n "$BENCH_REF" ]]; then
  REF_DIR=$(mktemp -d -t periscope-bench-src.XXXXXX)
  log "building $BENCH_REF ($(git rev-parse --short "$BENCH_REF")) in $REF_DIR"
  git archive "$BENCH_REF" | tar -x -C "$REF_DIR"
  (cd "$REF_DIR" && mvn -q -B -DskipTests package)
  JAR="$REF_DIR/target/periscope.jar"
  CP="$JAR:target/test-classes"
elif [[ ! -f "$JAR" ]] || [[ -n "$(find src/main conf pom.xml -newer "$JAR" -print -quit)" ]]; then
  log "building $JAR"
  mvn -q -B -DskipTests package
fi
if [[ ! -f target/test-classes/io/periscope/bench/LoadDriver.class ]] \
   || [[ src/test/java/io/periscope/bench/LoadDriver.java -nt target/test-classes/io/periscope/bench/LoadDriver.class ]]; then
  log "compiling the load driver"
  if ! mvn -q -B -DskipTests test-compile; then
    # The driver needs only the JDK: if another test does not compile right now, compile the driver alone.
    log "test-compile failed; compiling LoadDriver.java alone"
    mkdir -p target/bench-classes
    javac --release 17 -d target/bench-classes src/test/java/io/periscope/bench/LoadDriver.java
    CP="$JAR:$ROOT/target/bench-classes"
  fi
fi

# ---- one backend ---------------------------------------------------------------------------------
# start_service PORT REMOTE_PORT [env...]: sets SERVICE_PID, READY_MS
start_service() {
  local port=$1 remote=$2; shift 2
  if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/health"; then
    echo "port $port is already in use" >&2; exit 1
  fi
  local t0 code
  t0=$(date +%s%N)
  env "$@" DATA_DIR="$DATA_DIR" PORT="$port" REMOTE_PORT="$remote" \
    java $SERVICE_JAVA_OPTS -jar "$JAR" serve > "$OUT/service-$BACKEND.log" 2>&1 &
  SERVICE_PID=$!
  READY_MS=""
  for _ in $(seq 1 1200); do  # at most 60 s
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/health" || true)
    if [[ "$code" == 200 ]]; then READY_MS=$(( ($(date +%s%N) - t0) / 1000000 )); break; fi
    kill -0 "$SERVICE_PID" 2>/dev/null || { echo "the service exited; see $OUT/service-$BACKEND.log" >&2; exit 1; }
    sleep 0.05
  done
  [[ -n "$READY_MS" ]] || { echo "the service was not ready within 60 s" >&2; exit 1; }
}

rss_mb() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$SERVICE_PID/status"; }

create_user() {  # id email [env...]
  local id=$1 email=$2; shift 2
  echo "$PASSWORD" | env "$@" DATA_DIR="$DATA_DIR" PERISCOPE_LOG_LEVEL=WARN \
    timeout 120 java -jar "$JAR" users create --id "$id" --email "$email" --role user
}

driver() {  # label scenario emails
  timeout $(( 3 * (SECONDS_MEASURED + WARMUP) + 120 )) \
    java -Xmx512m -cp "$CP" io.periscope.bench.LoadDriver --base "http://127.0.0.1:$PORT_USED" \
      --email "$3" --password "$PASSWORD" --clients "$CLIENTS" --seconds "$SECONDS_MEASURED" --warmup "$WARMUP" \
      --scenario "$2" --label "$1" --tsv "$TSV" | tee -a "$OUT/driver-$BACKEND.txt"
}

run_backend() {
  BACKEND=$1
  DATA_DIR=$(mktemp -d -t periscope-bench.XXXXXX)
  local envs=() idx
  if [[ "$BACKEND" == postgres ]]; then
    DB_NAME="periscope_bench_$$"
    psql -h "$PGHOST" -U "$PGUSER" -q -c "create database $DB_NAME" >/dev/null
    envs=(DATABASE_URL="jdbc:postgresql://$PGHOST:5432/$DB_NAME" DATABASE_USER="$PGUSER")
    PORT_USED=$PG_PORT; idx=1
  else
    PORT_USED=$H2_PORT; idx=0
  fi
  log "$BACKEND: starting on 127.0.0.1:$PORT_USED (DATA_DIR=$DATA_DIR)"
  start_service "$PORT_USED" $((REMOTE_PORT_BASE + idx)) "${envs[@]}"
  local logged_ms
  logged_ms=$(grep -o 'event=ready.* ms=[0-9]*' "$OUT/service-$BACKEND.log" | grep -o '[0-9]*$' || echo "?")
  log "$BACKEND: ready after ${READY_MS} ms (service's own event=ready ms=$logged_ms); idling ${IDLE}s"
  sleep "$IDLE"
  local rss_idle; rss_idle=$(rss_mb)
  log "$BACKEND: idle RSS ${rss_idle} MB"

  local emails="bench@example.org"
  create_user bench bench@example.org "${envs[@]}"
  local many="bench@example.org"
  for i in $(seq 2 "$OWNERS"); do
    create_user "bench$i" "bench$i@example.org" "${envs[@]}"
    many="$many,bench$i@example.org"
  done

  local cpu0 cpu1
  cpu0=$(awk '{print $14+$15}' "/proc/$SERVICE_PID/stat")
  driver "$BACKEND/1-owner" all "$emails"
  if (( OWNERS > 1 )); then driver "$BACKEND/$OWNERS-owners" create "$many"; fi
  cpu1=$(awk '{print $14+$15}' "/proc/$SERVICE_PID/stat")
  local rss_after; rss_after=$(rss_mb)
  local threads; threads=$(awk '/Threads/ {print $2}' "/proc/$SERVICE_PID/status")
  # How much of that RSS is live heap vs heap the JVM merely grew into (default max heap = 1/4 of RAM).
  local heap; heap=$(jcmd "$SERVICE_PID" GC.heap_info 2>/dev/null | awk '/garbage-first heap/ {
      for (i = 1; i <= NF; i++) { if ($i == "total") t = $(i+1); if ($i == "used") u = $(i+1) }
      gsub(/[^0-9]/, "", t); gsub(/[^0-9]/, "", u); printf "%d/%d", u/1024, t/1024 }')
  printf '%s\tready_ms=%s\tready_logged_ms=%s\tidle_rss_mb=%s\trss_after_load_mb=%s\theap_used/committed_mb=%s\tservice_cpu_s=%s\tthreads=%s\n' \
    "$BACKEND" "$READY_MS" "$logged_ms" "$rss_idle" "$rss_after" "${heap:-?}" "$(( (cpu1 - cpu0) / $(getconf CLK_TCK) ))" \
    "$threads" >> "$SUMMARY"

  log "$BACKEND: stopping (SIGTERM)"
  local t0; t0=$(date +%s%N)
  kill -TERM "$SERVICE_PID"
  for _ in $(seq 1 60); do kill -0 "$SERVICE_PID" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$SERVICE_PID" 2>/dev/null; then log "$BACKEND: still running 30 s after SIGTERM; killing"; fi
  log "$BACKEND: stopped after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  cleanup
}

log "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f MB", $2/1024}' /proc/meminfo); $(java -version 2>&1 | head -1)"
# The kernel's DAMON monitor, where it runs, stalls this kind of load every sample interval (docs/performance-log.md).
for kdamond in /sys/kernel/mm/damon/admin/kdamonds/[0-9]*; do
  [[ -r "$kdamond/state" ]] || continue
  log "DAMON $(basename "$kdamond"): $(cat "$kdamond/state"), sampling every $(( $(cat "$kdamond"/contexts/0/monitoring_attrs/intervals/sample_us 2>/dev/null || echo 0) / 1000 )) ms"
done
log "service jar: $JAR${BENCH_REF:+ (from $BENCH_REF)}; working tree HEAD $(git rev-parse --short HEAD)"
log "clients=$CLIENTS seconds=$SECONDS_MEASURED warmup=$WARMUP owners=$OWNERS backends=$BACKENDS out=$OUT"
for b in $BACKENDS; do run_backend "$b"; done

echo
echo "== start-up and memory =="
cat "$SUMMARY"
echo
echo "== load (clients=$CLIENTS, ${SECONDS_MEASURED}s measured after ${WARMUP}s warm-up) =="
printf '%-20s %-7s %7s %6s %9s %7s %10s %8s %8s %8s %8s\n' run scenario clients owners requests errors req/s p50ms p90ms p99ms maxms
while IFS=$'\t' read -r label sc cl ow req err tp p50 p90 p99 max; do
  [[ "$sc" == create ]] || ow=1
  printf '%-20s %-7s %7s %6s %9s %7s %10s %8s %8s %8s %8s\n' "$label" "$sc" "$cl" "$ow" "$req" "$err" "$tp" "$p50" "$p90" "$p99" "$max"
done < "$TSV"
echo
echo "results: $OUT"
