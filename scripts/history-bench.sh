#!/usr/bin/env bash
# periscope history on a PostgreSQL journal of a million run events: io.periscope.bench.HistoryBench, in a
# scratch database of the test server (dropped afterwards). Arguments go to the harness, e.g.
#   scripts/history-bench.sh --watches 1000 --runs 1000
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests test-compile
mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
exec java -Xmx512m -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.periscope.bench.HistoryBench "$@"
