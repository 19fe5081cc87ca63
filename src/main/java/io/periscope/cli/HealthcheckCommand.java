package io.periscope.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code healthcheck [--url URL]}: exit 0 when the service on this machine answers its health route
 * with 200, 1 otherwise. It is the container image's HEALTHCHECK, so the image needs no curl; it
 * starts no actor system and reads no journal, only {@code PORT}.
 */
@Command(
    name = "healthcheck",
    mixinStandardHelpOptions = true,
    description = {
      "Exits 0 when the service on this machine answers GET /health with 200 within 3 s, 1"
          + " otherwise.",
      "The container image's HEALTHCHECK: it starts nothing and reads only PORT."
    })
final class HealthcheckCommand implements Callable<Integer> {
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  @ParentCommand private Root root;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "the address to ask (default: http://127.0.0.1:$PORT/health)")
  private URI url;

  @Override
  public Integer call() throws InterruptedException {
    URI target =
        url != null
            ? url
            : URI.create("http://127.0.0.1:" + root.env().getOrDefault("PORT", "8080") + "/health");
    HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    try {
      HttpResponse<Void> answer =
          http.send(
              HttpRequest.newBuilder(target).timeout(TIMEOUT).build(),
              HttpResponse.BodyHandlers.discarding());
      if (answer.statusCode() == 200) {
        root.out.println("healthy " + target);
        return ExitCodes.OK;
      }
      root.err.println("unhealthy: " + target + " answered " + answer.statusCode());
    } catch (IOException | IllegalArgumentException e) {
      root.err.println(
          "unhealthy: " + target + " did not answer (" + e.getClass().getSimpleName() + ")");
    }
    return ExitCodes.FAILED;
  }
}
