package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import io.periscope.account.Registration;
import io.periscope.config.Settings;
import io.periscope.metrics.ManagementMetrics;
import io.periscope.metrics.Metrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.StatusCodes;

/**
 * Public, unauthenticated: liveness and which integrations are configured (booleans, never values).
 */
public final class SystemRoutes implements Routes {
  private final Settings settings;
  private final Map<String, Boolean> identityProviders;
  private final Supplier<CompletionStage<Boolean>> modelReady;
  private final Supplier<CompletionStage<Boolean>> searchReady;

  /** This node's metrics when METRICS_ENABLED serves them here, on the API port. */
  private final Optional<Metrics> exposedMetrics;

  /** Each condition of this node's readiness, by name. */
  private final Supplier<CompletionStage<Map<String, Boolean>>> readiness;

  /** Whether anyone can open an account by themselves: REGISTRATION admits some and SMTP is set. */
  private final boolean registration;

  /** Whether no account exists yet: the sign-in page then says how to make the first one. */
  private final Supplier<CompletionStage<Boolean>> setup;

  /**
   * @param identityProviders {@code github} and each configured OpenID Connect provider, by name
   * @param modelReady whether a usable model key exists now (the pool changes at runtime: read per
   *     request)
   * @param searchReady whether a search provider and a usable search key exist now
   */
  public SystemRoutes(
      Settings settings,
      Map<String, Boolean> identityProviders,
      Supplier<CompletionStage<Boolean>> modelReady,
      Supplier<CompletionStage<Boolean>> searchReady,
      Optional<Metrics> exposedMetrics,
      Supplier<CompletionStage<Map<String, Boolean>>> readiness,
      Registration registration,
      Supplier<CompletionStage<Boolean>> setup) {
    this.settings = settings;
    this.identityProviders = identityProviders;
    this.modelReady = modelReady;
    this.searchReady = searchReady;
    this.exposedMetrics = exposedMetrics;
    this.readiness = readiness;
    this.setup = setup;
    this.registration =
        settings.integrations().email() && registration.mode() != Registration.Mode.CLOSED;
  }

  /** The body of GET /config/status. */
  public record ConfigStatus(
      boolean model,
      boolean search,
      boolean telegram,
      boolean telegramAdminChat,
      boolean email,
      boolean database,
      boolean cors,
      Map<String, Boolean> identityProviders,
      boolean registration,
      boolean setup) {}

  @Override
  public List<Endpoint> endpoints() {
    List<Endpoint> endpoints =
        new ArrayList<>(
            List.of(
                new Endpoint(GET, "/health", (caller, p) -> answer(ok(Map.of("status", "ok")))),
                new Endpoint(
                    GET, "/health/live", (caller, p) -> answer(ok(Map.of("status", "alive")))),
                new Endpoint(GET, "/health/ready", (caller, p) -> answer(ready())),
                new Endpoint(GET, "/config/status", (caller, p) -> answer(status()))));
    exposedMetrics.ifPresent(
        metrics ->
            endpoints.add(
                new Endpoint(GET, "/metrics", (caller, p) -> ManagementMetrics.scraped(metrics))));
    return endpoints;
  }

  /** The body of GET /health/ready: ready or not, and each condition. */
  public record Readiness(String status, Map<String, Boolean> checks) {}

  private CompletionStage<Reply> ready() {
    return readiness
        .get()
        .thenApply(
            checks -> {
              boolean ready = !checks.containsValue(false);
              return json(
                  ready ? StatusCodes.OK : StatusCodes.SERVICE_UNAVAILABLE,
                  new Readiness(ready ? "ready" : "not-ready", checks));
            });
  }

  private CompletionStage<Reply> status() {
    Settings.Integrations i = settings.integrations();
    CompletionStage<Boolean> noAccount = setup.get();
    return modelReady
        .get()
        .thenCombine(searchReady.get(), (model, search) -> new boolean[] {model, search})
        .thenCombine(
            noAccount,
            (ready, firstRun) ->
                ok(
                    new ConfigStatus(
                        ready[0],
                        ready[1],
                        i.telegram(),
                        i.telegramAdminChat(),
                        i.email(),
                        settings.database().configured(),
                        !settings.webOrigins().isEmpty(),
                        identityProviders,
                        registration,
                        firstRun)));
  }
}
