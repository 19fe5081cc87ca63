# The Periscope image: built with Maven, run on a JRE 17. From the repository's root:
#   docker build -t periscope:0.1.0 --build-arg REVISION="$(git rev-parse HEAD)" \
#     --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" .
#   docker run -d -p 8080:8080 -v periscope-data:/var/lib/periscope --stop-timeout 60 periscope:0.1.0
# (or `docker compose --profile embedded up -d`, see compose.yaml). The same jar serves (the default command) and
# runs the command line, e.g. in a pod:
#   kubectl -n periscope exec -i deploy/periscope -- env JAVA_TOOL_OPTIONS=-Xmx256m \
#     java -jar /app/periscope.jar users create --id … < password
# Layers (docs/operations.md, "The image"): the dependencies' jars (/app/lib, about 70 MB) change only with
# pom.xml, the application's own jar (/app/periscope.jar, about 2 MB) with every change of the code, so a new
# version pulls and pushes about 2 MB on top of the base image and the dependencies it already has.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /build
# Dependencies first, in their own layer: source changes do not download them again.
COPY pom.xml .
RUN mvn -q -B -Pimage dependency:go-offline
COPY conf conf
COPY src src
# -Pimage: the application alone in target/periscope-<version>.jar (its manifest names lib/ on its class path)
# and its runtime dependencies in target/lib.
RUN mvn -q -B -Pimage -DskipTests package \
    && mkdir -p /image \
    && mv target/lib /image/lib \
    && cp target/periscope-*.jar /image/periscope.jar

FROM eclipse-temurin:17-jre
ARG VERSION=0.1.0-SNAPSHOT
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="Periscope" \
      org.opencontainers.image.description="A self-hosted service that watches the web for its users." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="docker.io/library/eclipse-temurin:17-jre"
# curl for the health check below: a few milliseconds of CPU per probe where the jar's own check starts a JVM
# (about 1.3 s of CPU). The base image already ships it; installing it names the dependency instead of relying
# on that, and costs nothing when it is there.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 periscope \
    && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/periscope periscope \
    && mkdir -p /var/lib/periscope && chown periscope:periscope /var/lib/periscope && chmod 0700 /var/lib/periscope
# The dependencies, then the application: the order of the layers is the order of how often they change.
COPY --from=build /image/lib/ /app/lib/
COPY --from=build /image/periscope.jar /app/periscope.jar
# Not root: uid and gid 10001, by number so that Kubernetes can check runAsNonRoot (k8s/deployment.yaml runs the
# same ids), owning only the data directory. Nothing else is written: the image runs on a read-only root file
# system with the data directory and /tmp (the JVM's perf data) as volumes.
USER 10001:10001
# DATA_DIR holds the embedded journal, the generated secrets, the process lock and the file the command line finds
# the service by (on PostgreSQL and on a cluster the journal is in the database). Keep it on a volume.
ENV DATA_DIR=/var/lib/periscope
VOLUME ["/var/lib/periscope"]
# HTTP, Pekko Management (cluster profiles), Pekko remoting.
EXPOSE 8080 7626 17355
# The heap follows the container's memory limit, and an out-of-memory error ends the process (for the restart
# policy to start a clean one) instead of leaving a broken JVM serving.
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# GET /health on $PORT (8080 unless set) with curl: fails on no answer within 5 s or a status of 400 or more.
# A shell reads $PORT: one more small process, no JVM.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["sh", "-c", "curl -fsS -m 5 -o /dev/null \"http://127.0.0.1:${PORT:-8080}/health\""]
# SIGTERM drains: not ready at once, in-flight requests get up to 20 s, runs in flight finish (up to 30 s) while
# shards move. Docker's default 10 s stop timeout would cut that short: stop with `--stop-timeout 60`
# (`stop_grace_period: 60s` in compose, terminationGracePeriodSeconds in k8s/deployment.yaml).
STOPSIGNAL SIGTERM
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/periscope.jar \"$@\"", "periscope"]
CMD ["serve"]
