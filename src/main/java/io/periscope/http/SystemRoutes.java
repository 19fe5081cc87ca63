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
  private final Map<String, Boolean> identityProviders;

  /** @param identityProviders {@code github} and each configured OpenID Connect provider, by name */
  public SystemRoutes(Settings settings, Map<String, Boolean> identityProviders) {
    this.settings = settings;
    this.identityProviders = identityProviders;
  }

  /** The body of GET /config/status. */
  public record ConfigStatus(boolean model, boolean search, boolean telegram, boolean telegramAdminChat,
                             boolean email, boolean database, boolean cors, Map<String, Boolean> identityProviders) {}

  public Route route() {
    Settings.Integrations i = settings.integrations();
    ConfigStatus status = new ConfigStatus(i.model(), i.search(), i.telegram(), i.telegramAdminChat(), i.email(),
        settings.database().configured(), !settings.webOrigins().isEmpty(), identityProviders);
    return concat(
        path("health", () -> get(() -> complete(ok(Map.of("status", "ok"))))),
        path(PathMatchers.segment("config").slash("status"), () -> get(() -> complete(ok(status)))));
  }
}
