# The Periscope image: built with Maven, run on a JRE 17. From the repository's root:
#   docker build -t periscope:0.1.0 .
# The same jar serves (the default command) and runs the command line, e.g. in a pod:
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
RUN useradd --system --uid 10001 --home-dir /var/lib/periscope periscope \
    && mkdir -p /var/lib/periscope && chown periscope /var/lib/periscope
COPY --from=build /build/target/periscope.jar /app/periscope.jar
USER 10001
# DATA_DIR holds the process lock and the file the command line finds the service by (the journal is PostgreSQL
# on a cluster); HTTP, Pekko Management, Pekko remoting.
ENV DATA_DIR=/var/lib/periscope
EXPOSE 8080 7626 17355
ENTRYPOINT ["java", "-jar", "/app/periscope.jar"]
CMD ["serve"]
