package io.periscope.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code healthcheck [--url URL]}: exit 0 when the service on this machine answers its health route
 * with 200, 1 otherwise. It is the container image's HEALTHCHECK, so the image needs no curl; it
 * starts no actor system and reads no journal, only {@code PORT}.
 */
final class HealthcheckCommand {
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  private HealthcheckCommand() {}

  static int run(List<String> rest, Map<String, String> env, PrintStream out, PrintStream err)
      throws InterruptedException {
    Args args = new Args(rest, Set.of("--url"), Set.of());
    URI url =
        URI.create(
            args.get("--url")
                .orElse("http://127.0.0.1:" + env.getOrDefault("PORT", "8080") + "/health"));
    HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    try {
      HttpResponse<Void> answer =
          http.send(
              HttpRequest.newBuilder(url).timeout(TIMEOUT).build(),
              HttpResponse.BodyHandlers.discarding());
      if (answer.statusCode() == 200) {
        out.println("healthy " + url);
        return 0;
      }
      err.println("unhealthy: " + url + " answered " + answer.statusCode());
    } catch (IOException e) {
      err.println("unhealthy: " + url + " did not answer (" + e.getClass().getSimpleName() + ")");
    }
    return 1;
  }
}
