# The Periscope image: built with Maven, run on a JRE 17. From the repository's root:
#   docker build -t periscope:0.1.0 .
#   docker run -d -p 8080:8080 -v periscope-data:/var/lib/periscope --stop-timeout 60 periscope:0.1.0
# (or `docker compose --profile embedded up -d`, see compose.yaml). The same jar serves (the default command) and
# runs the command line, e.g. in a pod:
#   kubectl -n periscope exec -i deploy/periscope -- env JAVA_TOOL_OPTIONS=-Xmx256m \
#     java -jar /app/periscope.jar users create --id … < password
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /build
# Dependencies first, in their own layer: source changes do not download them again.
COPY pom.xml .
RUN mvn -q -B dependency:go-offline
COPY conf conf
COPY src src
RUN mvn -q -B -DskipTests package

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 periscope \
    && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/periscope periscope \
    && mkdir -p /var/lib/periscope && chown periscope:periscope /var/lib/periscope && chmod 0700 /var/lib/periscope
COPY --from=build /build/target/periscope.jar /app/periscope.jar
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
# The jar's own health check (GET /health on $PORT), so the image needs no curl; a small heap of its own.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["java", "-Xmx32m", "-XX:TieredStopAtLevel=1", "-jar", "/app/periscope.jar", "healthcheck"]
# SIGTERM drains: not ready at once, in-flight requests get up to 20 s, runs in flight finish (up to 30 s) while
# shards move. Docker's default 10 s stop timeout would cut that short: stop with `--stop-timeout 60`
# (`stop_grace_period: 60s` in compose, terminationGracePeriodSeconds in k8s/deployment.yaml).
STOPSIGNAL SIGTERM
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/periscope.jar \"$@\"", "periscope"]
CMD ["serve"]
