package io.periscope.http;

import static io.periscope.http.ApiDirectives.logged;
import static io.periscope.http.ApiDirectives.refuseEmptyJsonBody;
import static io.periscope.http.ApiDirectives.withPrincipal;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.typesafe.config.ConfigFactory;
import org.apache.pekko.http.cors.javadsl.CorsDirectives;
import org.apache.pekko.http.cors.javadsl.settings.CorsSettings;
import org.apache.pekko.http.javadsl.server.Route;
import io.periscope.auth.SessionGenerations;
import io.periscope.auth.Tokens;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The whole route tree: access log, error handling, CORS, the empty-body rule, public routes, then the
 * bearer token for everything else (unknown paths included, so they answer 401 without one).
 */
public final class HttpApi {
  private final Tokens tokens;
  private final SessionGenerations sessions;
  private final List<String> webOrigins;
  private final SystemRoutes system;
  private final AuthRoutes auth;
  private final AssistRoutes assist;
  private final WatchRoutes watches;
  private final CollectionRoutes collection;
  private final AdminRoutes admin;
  private final TrustRoutes trust;
  private final FeedbackRoutes feedback;
  private final DeviceRoutes devices;

  public HttpApi(Tokens tokens, SessionGenerations sessions, List<String> webOrigins, SystemRoutes system,
                 AuthRoutes auth, AssistRoutes assist, WatchRoutes watches, CollectionRoutes collection,
                 AdminRoutes admin, TrustRoutes trust, FeedbackRoutes feedback,
                 DeviceRoutes devices) {
    this.tokens = tokens;
    this.sessions = sessions;
    this.webOrigins = webOrigins;
    this.system = system;
    this.auth = auth;
    this.assist = assist;
    this.watches = watches;
    this.collection = collection;
    this.admin = admin;
    this.trust = trust;
    this.feedback = feedback;
    this.devices = devices;
  }

  public Route route() {
    return logged(() -> handled(() -> withCors(() -> handled(() -> refuseEmptyJsonBody(() -> concat(
        handleRejections(ErrorHandling.methodRejections(), () -> concat(system.route(), auth.route())),
        // assistance before the watch routes: only its POSTs under /watches/draft… are not a watch's
        withPrincipal(tokens, sessions, caller -> concat(assist.route(caller), watches.route(caller),
            collection.route(caller), admin.route(caller), trust.route(caller),
            feedback.route(caller), devices.route(caller)))))))));
  }

  private static Route handled(Supplier<Route> inner) {
    return handleExceptions(ErrorHandling.exceptions(), () -> handleRejections(ErrorHandling.rejections(), inner));
  }

  /** CORS only for the configured origins; with none configured no CORS header is ever sent. */
  private Route withCors(Supplier<Route> inner) {
    if (webOrigins.isEmpty()) return inner.get();
    return CorsDirectives.cors(corsSettings(webOrigins), inner);
  }

  static CorsSettings corsSettings(List<String> origins) {
    return CorsSettings.create(ConfigFactory.parseMap(Map.of(
        "pekko.http.cors.allowed-origins", origins,
        "pekko.http.cors.allowed-methods", List.of("GET", "POST", "PUT", "DELETE", "OPTIONS"),
        "pekko.http.cors.allowed-headers", List.of("Authorization", "Content-Type"),
        "pekko.http.cors.exposed-headers", List.of("Retry-After"),
        "pekko.http.cors.allow-credentials", false,
        "pekko.http.cors.allow-generic-http-requests", true,
        "pekko.http.cors.max-age", "1800 seconds")).withFallback(ConfigFactory.defaultReference()));
  }
}
