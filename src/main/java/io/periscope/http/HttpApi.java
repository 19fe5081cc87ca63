package io.periscope.http;

import static io.periscope.http.ApiDirectives.logged;
import static io.periscope.http.ApiDirectives.refuseEmptyJsonBody;
import static io.periscope.http.ApiDirectives.withPrincipal;
import static io.periscope.http.ApiDirectives.withinScope;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.periscope.account.AccountAccess;
import io.periscope.auth.Principal;
import io.periscope.auth.Tokens;
import io.periscope.web.WebRoutes;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.pekko.http.cors.javadsl.CorsDirectives;
import org.apache.pekko.http.cors.javadsl.settings.CorsSettings;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The whole route tree: access log, error handling, CORS, the empty-body rule, public routes, then
 * the bearer token for everything else (unknown paths included, so they answer 401 without one).
 */
public final class HttpApi {
  private final Tokens tokens;
  private final AccountAccess sessions;
  private final List<String> webOrigins;
  private final ClientAddresses clients;
  private final RequestMetrics metrics;
  private final List<Endpoint> allEndpoints;

  /**
   * The web client's pages and assets, answered without a token; it never answers a path of the
   * routes below.
   */
  private final Route webClient;

  /** Answered before any token is read. */
  private final List<Group> open;

  /** Behind the bearer token. */
  private final List<Group> authenticated;

  /** A group of routes with its endpoints, listed once. */
  private record Group(Routes routes, List<Endpoint> endpoints) {
    static List<Group> of(Routes... groups) {
      return Stream.of(groups).map(g -> new Group(g, g.endpoints())).toList();
    }

    Route route(Principal caller) {
      return routes.around(caller, () -> Endpoint.routes(endpoints, caller));
    }
  }

  public HttpApi(
      Tokens tokens,
      AccountAccess sessions,
      List<String> webOrigins,
      ClientAddresses clients,
      MeterRegistry meters,
      SystemRoutes system,
      AuthRoutes auth,
      AssistRoutes assist,
      WatchRoutes watches,
      VersionRoutes versions,
      CollectionRoutes collection,
      AdminRoutes admin,
      AccountRoutes account,
      TrustRoutes trust,
      QuotaRoutes quotas,
      TransferRoutes transfer,
      FeedbackRoutes feedback,
      DeviceRoutes devices,
      OpenApiRoutes openApi,
      ChannelRoutes channels,
      UsageRoutes usage,
      BacktestRoutes backtests,
      DryRunRoutes dryRuns,
      SourceRoutes sources,
      WebRoutes webClient) {
    this.tokens = tokens;
    this.sessions = sessions;
    this.webOrigins = webOrigins;
    this.clients = clients;
    this.open = Group.of(system, auth);
    this.authenticated =
        Group.of(
            watches,
            versions,
            collection,
            quotas,
            transfer,
            admin,
            account,
            trust,
            feedback,
            devices,
            openApi,
            channels,
            usage,
            backtests,
            dryRuns,
            sources,
            assist);
    this.webClient =
        webClient.route(apiSegments(Stream.concat(open.stream(), authenticated.stream()).toList()));
    this.allEndpoints =
        Stream.concat(endpoints(open).stream(), endpoints(authenticated).stream()).toList();
    this.metrics = new RequestMetrics(meters, allEndpoints);
  }

  public Route route() {
    return metrics.measured(
        () ->
            logged(
                clients,
                allEndpoints,
                () ->
                    handled(
                        () ->
                            withCors(
                                () ->
                                    handled(
                                        () ->
                                            refuseEmptyJsonBody(
                                                () ->
                                                    concat(
                                                        handleRejections(
                                                            ErrorHandling.methodRejections(),
                                                            () -> routes(open, null)),
                                                        webClient,
                                                        withPrincipal(
                                                            tokens,
                                                            sessions,
                                                            caller ->
                                                                withinScope(
                                                                    caller,
                                                                    () ->
                                                                        routes(
                                                                            authenticated,
                                                                            caller))))))))));
  }

  /** Every route answered without a token. */
  public List<Endpoint> publicEndpoints() {
    return endpoints(open);
  }

  /** Every route that needs a token. */
  public List<Endpoint> authenticatedEndpoints() {
    return endpoints(authenticated);
  }

  /**
   * The groups whose endpoint answers this request most specifically first; the others after, in
   * their order, for what their directives do on paths no endpoint has.
   */
  private static Route routes(List<Group> groups, Principal caller) {
    return extractRequest(
        request -> {
          Comparator<Optional<Endpoint>> answeringFirst =
              Comparator.comparing(
                  best -> best.orElse(null), Comparator.nullsLast(Endpoint.MOST_SPECIFIC_FIRST));
          Route[] ordered =
              groups.stream()
                  .sorted(
                      Comparator.comparing(
                          g ->
                              Endpoint.mostSpecific(
                                  g.endpoints(), request.method(), request.getUri().path()),
                          answeringFirst))
                  .map(g -> g.route(caller))
                  .toArray(Route[]::new);
          return concat(ordered[0], Arrays.copyOfRange(ordered, 1, ordered.length));
        });
  }

  /** The first segments of every route's path: the paths the web client never answers. */
  private static Set<String> apiSegments(List<Group> groups) {
    return endpoints(groups).stream()
        .map(e -> e.path().substring(1).split("/", -1)[0])
        .collect(Collectors.toUnmodifiableSet());
  }

  private static List<Endpoint> endpoints(List<Group> groups) {
    return groups.stream().flatMap(g -> g.endpoints().stream()).toList();
  }

  private static Route handled(Supplier<Route> inner) {
    return handleExceptions(
        ErrorHandling.exceptions(), () -> handleRejections(ErrorHandling.rejections(), inner));
  }

  /**
   * CORS only for the configured origins; with none configured no CORS header is ever sent. A
   * request from an unlisted origin is answered as if it had none, without CORS headers: the
   * browser then keeps the answer from the page, while API clients that send an Origin still work.
   */
  private Route withCors(Supplier<Route> inner) {
    if (webOrigins.isEmpty()) return inner.get();
    CorsSettings settings = corsSettings(webOrigins);
    return optionalHeaderValueByName(
        "Origin",
        origin ->
            origin.isPresent() && !listed(origin.get())
                ? inner.get()
                : CorsDirectives.cors(settings, inner));
  }

  /** Browsers send an origin lower-cased and without a default port, as WEB_ORIGIN must be. */
  private boolean listed(String origin) {
    return webOrigins.contains(origin.trim().toLowerCase(java.util.Locale.ROOT));
  }

  static CorsSettings corsSettings(List<String> origins) {
    return CorsSettings.create(
        ConfigFactory.parseMap(
                Map.of(
                    "pekko.http.cors.allowed-origins",
                    origins,
                    "pekko.http.cors.allowed-methods",
                    List.of("GET", "POST", "PUT", "DELETE", "OPTIONS"),
                    "pekko.http.cors.allowed-headers",
                    List.of("Authorization", "Content-Type"),
                    "pekko.http.cors.exposed-headers",
                    List.of("Retry-After"),
                    "pekko.http.cors.allow-credentials",
                    false,
                    "pekko.http.cors.allow-generic-http-requests",
                    true,
                    "pekko.http.cors.max-age",
                    "1800 seconds"))
            .withFallback(ConfigFactory.defaultReference()));
  }
}
