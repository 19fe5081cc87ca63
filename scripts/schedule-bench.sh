#!/usr/bin/env bash
# Runs at scale: io.periscope.bench.ScheduleBench against target/periscope.jar with loopback fakes
# (feed 50 ms, model 300 ms). Arguments go to the harness, e.g.
#   scripts/schedule-bench.sh --scenario run-all                 # 100 watches, RUN_ALL_CONCURRENCY 1 then 8
#   scripts/schedule-bench.sh --scenario run-cost                # model calls per run, the service's own time per run
#   scripts/schedule-bench.sh --scenario schedule --minutes 3    # 10,000 watches due every minute, one node
#   scripts/schedule-bench.sh --scenario cluster                 # 1 node, then 3: scheduled runs and reads
#   scripts/schedule-bench.sh --scenario cpu --heap 512m         # CPU per judged and nothing-new run, idle node
#     (each window also by thread from /proc/<pid>/task: the JIT's compilers, the collector, the rest; a run's
#     marginal CPU with the JIT and without its threads, the second nearer what a node that has finished compiling pays)
# BENCH_REF=<git rev> also builds that commit (git archive into a temporary directory) and measures its jar: the
# harness gets --jar <its jar>; run it beside a run without BENCH_REF for a before/after ratio.
# The cluster scenario runs conf/local1..3 on scratch databases of the PostgreSQL at PERISCOPE_TEST_DATABASE_URL
# (default jdbc:postgresql://127.0.0.1:5432/test, user postgres), which it creates and drops.
# Only 127.0.0.1 is targeted; every wait is bounded; the data directories are removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests package test-compile
mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
JAR_ARGS=()
if [[ -n "${BENCH_REF:-}" ]]; then
  REF_DIR=$(mktemp -d -t periscope-bench-ref.XXXXXX)
  trap 'rm -rf "$REF_DIR"' EXIT
  git archive "$BENCH_REF" | tar -x -C "$REF_DIR"
  (cd "$REF_DIR" && mvn -q -B -DskipTests package)
  JAR_ARGS=(--jar "$REF_DIR/target/periscope.jar")
fi
java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.periscope.bench.ScheduleBench "$@" "${JAR_ARGS[@]}"
