package io.periscope.http;

import static io.periscope.http.HttpResponses.ok;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import io.periscope.config.Settings;
import java.util.Map;

/** Public, unauthenticated: liveness and which integrations are configured (booleans, never values). */
public final class SystemRoutes {
  private final Settings settings;

  public SystemRoutes(Settings settings) {
    this.settings = settings;
  }

  /** The body of GET /config/status. */
  public record ConfigStatus(boolean model, boolean search, boolean telegram, boolean telegramAdminChat,
                             boolean email, boolean database, boolean cors) {}

  public Route route() {
    Settings.Integrations i = settings.integrations();
    ConfigStatus status = new ConfigStatus(i.model(), i.search(), i.telegram(), i.telegramAdminChat(), i.email(),
        settings.database().configured(), !settings.webOrigins().isEmpty());
    return concat(
        path("health", () -> get(() -> complete(ok(Map.of("status", "ok"))))),
        path(PathMatchers.segment("config").slash("status"), () -> get(() -> complete(ok(status)))));
  }
}
