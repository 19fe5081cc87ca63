package io.periscope.http;

import static io.periscope.http.Reply.error;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.account.AccountAccess;
import io.periscope.auth.Principal;
import io.periscope.auth.TokenScope;
import io.periscope.auth.Tokens;
import io.periscope.entity.Refusal;
import io.periscope.json.Json;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.marshallers.jackson.Jackson;
import org.apache.pekko.http.javadsl.marshalling.Marshaller;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpMethod;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.RemoteAddress;
import org.apache.pekko.http.javadsl.model.RequestEntity;
import org.apache.pekko.http.javadsl.model.ResponseEntity;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.HttpChallenge;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.model.headers.WWWAuthenticate;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route layer's own directives: access log, JSON bodies, bearer tokens, roles and rate limits.
 */
public final class ApiDirectives {
  private static final Logger accessLog = LoggerFactory.getLogger("periscope.http");
  private static final Duration BODY_READ_TIMEOUT = Duration.ofSeconds(10);

  /**
   * pekko-http-jackson with the service's own ObjectMapper: the one writer of the interface's JSON
   * answers.
   */
  private static final Marshaller<Object, RequestEntity> JSON = Jackson.marshaller(Json.MAPPER);

  private ApiDirectives() {}

  /**
   * Completes with {@code reply}. The interface has one representation, so its answers are not
   * negotiated: a browser's {@code Accept: text/html} on an interface path still gets the JSON (an
   * error, say) instead of a rejection.
   */
  public static Route answer(Reply reply) {
    return mapRequest(
        request -> request.removeHeader("Accept"),
        () ->
            reply.body() == null
                ? complete(reply.status(), reply.headers(), (ResponseEntity) HttpEntities.EMPTY)
                : complete(reply.status(), reply.headers(), reply.body(), JSON));
  }

  /** Completes with the reply once it is there; a failure goes to {@link ErrorHandling}. */
  public static Route answer(CompletionStage<Reply> reply) {
    return onSuccess(reply, ApiDirectives::answer);
  }

  /**
   * One structured line per request: method, route template (never the path, which may name an
   * e-mail address or an id, nor the query), status, duration and client address.
   */
  public static Route logged(
      ClientAddresses clients, List<Endpoint> endpoints, Supplier<Route> inner) {
    return extractRequest(
        request -> {
          long start = System.nanoTime();
          return mapResponse(
              response -> {
                accessLog.info(
                    "event=request method={} route={} status={} ms={} ip={}",
                    request.method().name(),
                    RequestMetrics.routeOf(endpoints, request, response),
                    response.status().intValue(),
                    (System.nanoTime() - start) / 1_000_000,
                    clients.of(request));
                return response;
              },
              inner);
        });
  }

  /** A POST, PUT or PATCH that declares a JSON body and sends none is refused as an empty body. */
  public static Route refuseEmptyJsonBody(Supplier<Route> inner) {
    return extractRequest(
        request -> {
          boolean writes =
              request.method() == HttpMethods.POST
                  || request.method() == HttpMethods.PUT
                  || request.method() == HttpMethods.PATCH;
          boolean declaresJson =
              request.entity().getContentType().mediaType().equals(MediaTypes.APPLICATION_JSON);
          if (writes && declaresJson && request.entity().isKnownEmpty()) {
            return answer(
                error(
                    StatusCodes.BAD_REQUEST,
                    "the request declares a JSON body but the body is empty"));
          }
          return inner.get();
        });
  }

  /**
   * The body as a JSON tree, read whole up to {@code maxBytes} (413 beyond) with bounded nesting
   * (400 beyond). The tree's shape is checked by the route's validator.
   */
  public static Route jsonBody(long maxBytes, Function<JsonNode, Route> inner) {
    return strictBody(
        maxBytes,
        List.of(MediaTypes.APPLICATION_JSON.toString()),
        "a JSON body is required",
        "the body must be application/json",
        strict -> parsed(strict, inner));
  }

  /**
   * The body read whole up to {@code maxBytes} (413 beyond), when its media type is one of {@code
   * mediaTypes} (415 otherwise); an empty one is a 400 saying {@code required}.
   */
  public static Route strictBody(
      long maxBytes,
      List<String> mediaTypes,
      String required,
      String unsupported,
      Function<HttpEntity.Strict, Route> inner) {
    return extractRequest(
        request -> {
          if (request.entity().isKnownEmpty()) {
            return answer(error(StatusCodes.BAD_REQUEST, required));
          }
          String type = request.entity().getContentType().mediaType().toString();
          if (!mediaTypes.contains(type)) {
            return answer(error(StatusCodes.UNSUPPORTED_MEDIA_TYPE, unsupported));
          }
          // A body that arrived whole is read in place: toStrict would run a stream (an actor) for
          // it per request.
          if (request.entity() instanceof HttpEntity.Strict whole) {
            return whole.getData().length() > maxBytes
                ? answer(ErrorHandling.tooLarge())
                : inner.apply(whole);
          }
          return withSizeLimit(
              maxBytes, () -> extractStrictEntity(BODY_READ_TIMEOUT, maxBytes, inner::apply));
        });
  }

  private static Route parsed(HttpEntity.Strict entity, Function<JsonNode, Route> inner) {
    JsonNode body;
    try {
      body = Json.parse(entity.getData().toArray());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return answer(ErrorHandling.toReply(e));
    }
    return inner.apply(body);
  }

  /**
   * The caller from a valid bearer token (a sign-in token or a personal API token), with the role
   * its account has now; 401 for a missing, malformed, forged, expired, revoked or ended one, for
   * one of a disabled, deleted or absent account (see {@link AccountAccess}), and for an operator's
   * token that did not come from this machine: the command line calls the service it runs beside.
   */
  public static Route withPrincipal(
      Tokens tokens, AccountAccess access, Function<Principal, Route> inner) {
    return optionalHeaderValueByName(
        "Authorization",
        header -> {
          Optional<String> bearer =
              header
                  .filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7))
                  .map(h -> h.substring(7).trim());
          if (bearer.isEmpty()) return unauthorized(header.isEmpty());
          if (bearer.get().startsWith(AccountAccess.API_TOKEN_PREFIX))
            return caller(access.apiToken(bearer.get()), inner);
          Optional<Tokens.Claims> claims = tokens.claims(bearer.get());
          if (claims.isEmpty()) return unauthorized(false);
          if (!claims.get().operator()) return caller(access.signedIn(claims.get()), inner);
          return extractRequest(
              request ->
                  fromThisMachine(request)
                      ? caller(access.signedIn(claims.get()), inner)
                      : unauthorized(false));
        });
  }

  private static Route caller(
      CompletionStage<Optional<Principal>> caller, Function<Principal, Route> inner) {
    return onSuccess(
        caller, principal -> principal.map(inner).orElseGet(() -> unauthorized(false)));
  }

  /**
   * Whether the connection's peer (never a forwarded header) is an address of this machine: a
   * loopback address or one of its interfaces', as the command line's call to the address in {@code
   * service.json} is.
   */
  private static boolean fromThisMachine(HttpRequest request) {
    return request
        .getAttribute(AttributeKeys.remoteAddress)
        .flatMap(RemoteAddress::getAddress)
        .filter(ApiDirectives::ofThisMachine)
        .isPresent();
  }

  static boolean ofThisMachine(InetAddress address) {
    if (address.isLoopbackAddress()) return true;
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return false;
    }
  }

  private static Route unauthorized(boolean noToken) {
    return answer(
        error(
                StatusCodes.UNAUTHORIZED,
                noToken
                    ? "authentication required: send Authorization: Bearer <token>"
                    : "the token is invalid or expired")
            .withHeader(WWWAuthenticate.create(HttpChallenge.create("Bearer", "periscope"))));
  }

  /**
   * 403 for a personal API token without the scope the request needs ({@link TokenScope}): {@code
   * admin} for a path under {@code /admin} (as the route layer decodes it), else {@code read} for a
   * GET and {@code watches} for the rest, and for reading webhook secrets. A sign-in has every
   * scope.
   */
  public static Route withinScope(Principal caller, Supplier<Route> inner) {
    return extractRequest(
        request -> {
          TokenScope needed = neededScope(request.method(), request.getUri().path());
          return caller.allows(needed)
              ? inner.get()
              : failWith(
                  new Refusal(
                      Refusal.Kind.FORBIDDEN,
                      "this personal API token does not have the '"
                          + needed.wire()
                          + "' scope this request needs"));
        });
  }

  static TokenScope neededScope(HttpMethod method, String rawPath) {
    List<String> segments = Endpoint.decodedSegments(rawPath);
    if (segments == null || segments.get(0).equals("admin")) return TokenScope.ADMIN;
    // a webhook's signing secret is a credential: reading it is not for a read-only token
    if (segments.equals(List.of("channels", "webhook-secret"))) return TokenScope.WATCHES;
    return method.equals(HttpMethods.GET) ? TokenScope.READ : TokenScope.WATCHES;
  }

  public static Route adminOnly(Principal principal, Supplier<Route> inner) {
    return principal.isAdmin()
        ? inner.get()
        : failWith(new Refusal(Refusal.Kind.FORBIDDEN, "administrators only"));
  }

  /** {@code inner} counted per caller account against {@code limiter}: 429 past its window. */
  public static Endpoint.Answer perAccount(FixedWindowRateLimiter limiter, Endpoint.Answer inner) {
    return (caller, p) -> rateLimited(limiter, caller.accountId(), () -> inner.apply(caller, p));
  }

  /** 429 with Retry-After once {@code key} has used its window. */
  public static Route rateLimited(
      FixedWindowRateLimiter limiter, String key, Supplier<Route> inner) {
    FixedWindowRateLimiter.Decision decision = limiter.acquire(key);
    if (decision.allowed()) return inner.get();
    return answer(
        error(StatusCodes.TOO_MANY_REQUESTS, "rate limit exceeded; try again later")
            .withHeader(
                RawHeader.create("Retry-After", Long.toString(decision.retryAfterSeconds()))));
  }
}
