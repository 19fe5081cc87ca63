#!/usr/bin/env bash
# Alerts delivered per second through the outbox: io.periscope.bench.DeliveryBench against target/periscope.jar,
# with a loopback webhook receiver that answers 503 to every other alert's first attempt. Arguments go to the
# harness, e.g.
#   scripts/delivery-bench.sh --watches 1000 --concurrency 32
#   scripts/delivery-bench.sh --database-url jdbc:postgresql://127.0.0.1:5432/scratch   # a database of its own
# Only 127.0.0.1 is targeted; every wait is bounded; the data directory is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests package test-compile
mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
exec java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.periscope.bench.DeliveryBench "$@"
