package io.periscope.runtime;

import io.periscope.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code DATA_DIR/service.json}: where the running service listens, so the command line can act
 * through it instead of writing the journal behind its back.
 */
public record ServiceFile(String host, int port, long pid) {
  private static final String NAME = "service.json";

  public URI base() {
    return URI.create("http://" + host + ":" + port);
  }

  public void write(Path dataDir) throws IOException {
    Path tmp = Files.createTempFile(dataDir, "service", ".tmp");
    Files.write(tmp, Json.bytes(this));
    Files.move(
        tmp,
        dataDir.resolve(NAME),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  public static void remove(Path dataDir) {
    try {
      Files.deleteIfExists(dataDir.resolve(NAME));
    } catch (IOException ignored) {
      // a stale file is harmless: the command line checks that the service answers
    }
  }

  /** The service of this data directory when one answers its health check. */
  public static Optional<ServiceFile> running(Path dataDir, HttpClient client) {
    Path file = dataDir.resolve(NAME);
    if (!Files.exists(file)) return Optional.empty();
    try {
      ServiceFile service = Json.MAPPER.readValue(Files.readAllBytes(file), ServiceFile.class);
      HttpResponse<Void> health =
          client.send(
              HttpRequest.newBuilder(service.base().resolve("/health"))
                  .timeout(Duration.ofSeconds(3))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.discarding());
      return health.statusCode() == 200 ? Optional.of(service) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
