package io.periscope.http;

import static io.periscope.http.HttpResponses.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import io.periscope.config.Settings;
import java.util.List;
import java.util.Map;

/** Public, unauthenticated: liveness and which integrations are configured (booleans, never values). */
public final class SystemRoutes implements Routes {
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

  @Override
  public List<Endpoint> endpoints() {
    Settings.Integrations i = settings.integrations();
    ConfigStatus status = new ConfigStatus(i.model(), i.search(), i.telegram(), i.telegramAdminChat(), i.email(),
        settings.database().configured(), !settings.webOrigins().isEmpty(), identityProviders);
    return List.of(
        new Endpoint(GET, "/health", (caller, p) -> complete(ok(Map.of("status", "ok")))),
        new Endpoint(GET, "/config/status", (caller, p) -> complete(ok(status))));
  }
}
