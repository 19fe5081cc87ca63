package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.http.Reply.error;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.account.Account;
import io.periscope.account.Accounts;
import io.periscope.account.FirstRun;
import io.periscope.account.IdentityLinks;
import io.periscope.account.SelfService;
import io.periscope.auth.Principal;
import io.periscope.auth.SignInBackoff;
import io.periscope.channels.ChannelAddresses;
import io.periscope.entity.Failures;
import io.periscope.identity.IdentitySignIn;
import io.periscope.identity.SignInFailure;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.Uri;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Public /auth/* routes, all behind one fixed window per client address (per /64 for IPv6): login,
 * registration, e-mail verification, password recovery, and sign-in through identity providers at
 * /auth/&lt;provider&gt;. Any other path under /auth, an unconfigured provider included, is a 404,
 * except {@code /auth/logout}, which needs a token ({@link AccountRoutes}).
 */
public final class AuthRoutes implements Routes {
  private static final long MAX_BODY = 16 * 1024;

  /** The sealed sign-in flow; scoped to one provider's callback path. */
  static final String FLOW_COOKIE = "periscope_signin";

  private final Accounts accounts;
  private final SelfService selfService;
  private final IdentitySignIn signIn;
  private final IdentityLinks links;
  private final ChannelAddresses channelAddresses;
  private final Optional<String> webOrigin;
  private final String builtInClient;
  private final FixedWindowRateLimiter limiter;
  private final ClientAddresses clients;
  private final SignInBackoff backoff;
  private final FirstRun firstRun;

  /**
   * @param webOrigin the web client that receives identity-provider sign-ins (WEB_ORIGIN's first
   *     origin)
   * @param builtInClient the client this service serves (PUBLIC_URL), which receives a browser's
   *     sign-in when there is no WEB_ORIGIN
   */
  public AuthRoutes(
      Accounts accounts,
      SelfService selfService,
      IdentitySignIn signIn,
      IdentityLinks links,
      ChannelAddresses channelAddresses,
      Optional<String> webOrigin,
      String builtInClient,
      FixedWindowRateLimiter limiter,
      ClientAddresses clients,
      SignInBackoff backoff,
      FirstRun firstRun) {
    this.accounts = accounts;
    this.selfService = selfService;
    this.signIn = signIn;
    this.links = links;
    this.channelAddresses = channelAddresses;
    this.webOrigin = webOrigin;
    this.builtInClient = builtInClient;
    this.limiter = limiter;
    this.clients = clients;
    this.backoff = backoff;
    this.firstRun = firstRun;
  }

  /**
   * One window per client address for every path under /auth, unknown ones included, which never
   * need a token.
   */
  @Override
  public Route around(Principal caller, Supplier<Route> endpoints) {
    return pathPrefixTest(
        "auth",
        () ->
            extractRequest(
                request ->
                    request.getUri().path().equals(AccountRoutes.LOGOUT)
                        ? reject() // needs the token it ends: AccountRoutes, behind the token
                        : rateLimited(
                            limiter,
                            ClientAddresses.rateKey(clients.of(request)),
                            () -> handleRejections(ErrorHandling.rejections(), endpoints))));
  }

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            POST,
            "/auth/login",
            (caller, p) ->
                extractRequest(
                    request ->
                        jsonBody(
                            MAX_BODY,
                            body -> login(body, ClientAddresses.network(clients.of(request)))))),
        new Endpoint(POST, "/auth/register", (caller, p) -> jsonBody(MAX_BODY, this::register)),
        // the first administrator, through the start's one-time link; refused once any account is
        new Endpoint(
            POST,
            "/auth/setup",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body -> {
                      Fields f = Fields.of(body, "token", "id", "email", "password");
                      return onSuccess(
                          firstRun.create(
                              f.text("token"), f.text("id"), f.text("email"), f.text("password")),
                          session -> answer(json(StatusCodes.CREATED, session)));
                    })),
        new Endpoint(
            POST,
            "/auth/verify-email",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body ->
                        account(
                            selfService.verify(Fields.of(body, "token").text("token")),
                            "verified"))),
        new Endpoint(
            POST,
            "/auth/verify-email/resend",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body ->
                        accepted(
                            () ->
                                selfService.resendVerification(
                                    Fields.of(body, "email").text("email"))))),
        new Endpoint(
            POST,
            "/auth/forgot-password",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body ->
                        accepted(
                            () ->
                                selfService.forgotPassword(
                                    Fields.of(body, "email").text("email"))))),
        new Endpoint(
            POST,
            "/auth/reset-password",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body -> {
                      Fields f = Fields.of(body, "token", "password");
                      return account(
                          selfService.resetPassword(f.text("token"), f.text("password")),
                          "password-reset");
                    })),
        // what a link would connect, read without using it: the page names it on a button
        new Endpoint(
            POST,
            "/auth/link-identity/details",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body ->
                        onSuccess(
                            links.details(Fields.of(body, "token").text("token")),
                            details -> answer(ok(details))))),
        new Endpoint(
            POST,
            "/auth/link-identity",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body ->
                        account(links.confirm(Fields.of(body, "token").text("token")), "linked"))),
        new Endpoint(
            POST,
            "/auth/confirm-email-channel",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body ->
                        onSuccess(
                            channelAddresses.confirm(Fields.of(body, "token").text("token")),
                            address -> answer(ok(new AddressConfirmed("confirmed", address)))))),
        // an unconfigured provider is no route: 404, unless another /auth route has the path (then
        // 405)
        new Endpoint(
            GET,
            "/auth/{provider}",
            Map.of("provider", signIn::configured),
            (caller, p) -> startSignIn(p.get("provider"))),
        new Endpoint(
            GET,
            "/auth/{provider}/callback",
            Map.of("provider", signIn::configured),
            (caller, p) -> finishSignIn(p.get("provider"))));
  }

  /**
   * Password sign-in; after repeated failures for one address, from the client's network or from
   * anywhere, a 429 with Retry-After whatever the password (see {@link SignInBackoff}), except from
   * a network the address's account signed in from before: there the right password always signs
   * in, so nobody else's failures keep the owner out.
   */
  private Route login(JsonNode body, String network) {
    Fields credentials = Fields.of(body, "email", "password");
    String email = credentials.text("email");
    Duration wait = backoff.wait(email, network);
    CompletionStage<Boolean> mayTry =
        wait.isZero()
            ? CompletableFuture.completedFuture(true)
            : accounts.signedInBefore(email, network);
    return onSuccess(
        mayTry,
        tries -> {
          if (!tries) {
            long seconds = Math.max(1, wait.toSeconds());
            return answer(
                error(
                        StatusCodes.TOO_MANY_REQUESTS,
                        "too many failed sign-ins to this address; try again in " + seconds + " s")
                    .withHeader(RawHeader.create("Retry-After", Long.toString(seconds))));
          }
          return onSuccess(
              accounts
                  .login(email, credentials.text("password"))
                  .thenCompose(
                      session -> {
                        if (session.isEmpty()) {
                          backoff.failed(email, network);
                          return CompletableFuture.completedFuture(session);
                        }
                        backoff.succeeded(email, network);
                        // the sign-in stands even when the network could not be remembered
                        return accounts
                            .rememberSignIn(email, network)
                            .handle((done, failure) -> session);
                      }),
              session ->
                  session.isEmpty()
                      ? answer(error(StatusCodes.UNAUTHORIZED, "wrong e-mail or password"))
                      : answer(ok(session.get())));
        });
  }

  /**
   * Registration: with an administrator's invitation, a verified account at once (201), whatever
   * the sign-up rule; without, the mailed verification (202).
   */
  private Route register(JsonNode body) {
    if (body.isObject() && body.has("invitation")) {
      Fields f = Fields.of(body, "email", "password", "invitation");
      return onSuccess(
          selfService.registerInvited(f.text("email"), f.text("password"), f.text("invitation")),
          registered -> answer(json(StatusCodes.CREATED, registered)));
    }
    return accepted(
        () -> {
          Fields f = Fields.of(body, "email", "password");
          return selfService.register(f.text("email"), f.text("password"));
        });
  }

  private static Route accepted(Supplier<CompletionStage<SelfService.Accepted>> work) {
    return answer(work.get().thenApply(accepted -> json(StatusCodes.ACCEPTED, accepted)));
  }

  /** The body of a confirmed channel address. */
  public record AddressConfirmed(String status, String address) {}

  /** The body of a verification or reset: what happened and the account it happened to. */
  public record AccountChanged(String status, Account.View user) {}

  private static Route account(CompletionStage<Account.View> change, String status) {
    return onSuccess(change, user -> answer(ok(new AccountChanged(status, user))));
  }

  // ---- identity providers --------------------------------------------------------------------

  /**
   * Starts a provider's sign-in; a web client sends a {@code nonce} of its own, which comes back
   * with the session so that it takes only sign-ins it started.
   */
  private Route startSignIn(String provider) {
    return parameterOptional(
        "nonce",
        nonce ->
            nonce.isPresent() && !IdentitySignIn.CLIENT_NONCE.matcher(nonce.get()).matches()
                ? answer(
                    Reply.invalid(
                        List.of(
                            Issue.at(
                                "must be 16 to 128 letters, digits, '-' or '_'",
                                "query",
                                "nonce"))))
                : startSignIn(provider, nonce));
  }

  private Route startSignIn(String provider, Optional<String> nonce) {
    return webClient(
        client ->
            onComplete(
                signIn.start(provider, nonce),
                started -> {
                  if (started.isFailure())
                    return answer(signInFailed(started.failed().get(), client));
                  IdentitySignIn.Start s = started.get();
                  return answer(
                      Reply.redirect(Uri.create(s.redirect().toString()))
                          .withHeader(
                              SetCookie.create(
                                  flowCookie(
                                      provider,
                                      s.flowCookie(),
                                      IdentitySignIn.FLOW_LIFETIME.toSeconds()))));
                }));
  }

  private Route finishSignIn(String provider) {
    return webClient(client -> finishSignIn(provider, client));
  }

  /**
   * The client that receives a sign-in: WEB_ORIGIN's, else for a browser the one this service
   * serves; a caller that is no browser gets the session (or the error) as JSON.
   */
  private Route webClient(Function<Optional<String>, Route> inner) {
    return optionalHeaderValueByName(
        "Accept",
        accept ->
            inner.apply(
                webOrigin.or(
                    () ->
                        accept
                            .filter(a -> a.contains("text/html"))
                            .map(browser -> builtInClient))));
  }

  private Route finishSignIn(String provider, Optional<String> client) {
    return parameterOptional(
        "code",
        code ->
            parameterOptional(
                "state",
                state ->
                    parameterOptional(
                        "error",
                        error ->
                            optionalCookie(
                                FLOW_COOKIE,
                                cookie ->
                                    onComplete(
                                        signIn.finish(
                                            provider,
                                            code,
                                            state,
                                            error,
                                            cookie.map(c -> c.value())),
                                        finished -> {
                                          Reply response =
                                              finished.isSuccess()
                                                  ? signedIn(finished.get(), client)
                                                  : signInFailed(finished.failed().get(), client);
                                          // the flow is spent either way: a reload starts over
                                          // instead of replaying the code
                                          return answer(
                                              response.withHeader(
                                                  SetCookie.create(flowCookie(provider, "", 0))));
                                        })))));
  }

  /**
   * The token to the web client in the URL fragment (never sent to a server), with the nonce the
   * client started the sign-in with; else as /auth/login answers it.
   */
  private Reply signedIn(IdentitySignIn.SignedIn signedIn, Optional<String> client) {
    Accounts.Session session = signedIn.session();
    return client
        .map(
            origin -> {
              Map<String, String> fragment = new java.util.HashMap<>();
              fragment.put("token", session.token());
              fragment.put("tokenType", session.tokenType());
              fragment.put("expiresAt", session.expiresAt().toString());
              signedIn.clientNonce().ifPresent(nonce -> fragment.put("nonce", nonce));
              return redirect(origin, fragment);
            })
        .orElseGet(() -> ok(session));
  }

  private Reply signInFailed(Throwable thrown, Optional<String> client) {
    Throwable t = Failures.unwrap(thrown);
    if (!(t instanceof SignInFailure f)) return ErrorHandling.toReply(t);
    return client
        .map(origin -> redirect(origin, Map.of("error", f.reason().code)))
        .orElseGet(() -> error(StatusCodes.get(f.reason().status), f.getMessage()));
  }

  private static Reply redirect(String origin, Map<String, String> fragment) {
    List<String> parts = new ArrayList<>();
    fragment.forEach((k, v) -> parts.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
    parts.sort(null);
    return Reply.redirect(Uri.create(origin + "/#" + String.join("&", parts)));
  }

  private HttpCookie flowCookie(String provider, String value, long maxAgeSeconds) {
    return HttpCookie.create(FLOW_COOKIE, value)
        .withPath("/auth/" + provider + "/callback")
        .withHttpOnly(true)
        .withSecure(signIn.secureCookie())
        .withSameSite(SameSite.Lax)
        .withMaxAge(maxAgeSeconds);
  }

  // ---- bodies ---------------------------------------------------------------------------------

  /** A body of non-empty string fields, every missing or empty one an issue. */
  record Fields(Map<String, String> values) {
    static Fields of(JsonNode body, String... fields) {
      if (!body.isObject()) {
        throw new ValidationException(
            List.of(Issue.at("the body must be an object with " + String.join(", ", fields))));
      }
      List<Issue> issues = new ArrayList<>();
      Map<String, String> values = new java.util.HashMap<>();
      for (String field : fields) {
        JsonNode node = body.get(field);
        if (node == null || !node.isTextual() || node.asText().isEmpty()) {
          issues.add(Issue.at("must be a non-empty string", field));
        } else {
          values.put(field, node.asText());
        }
      }
      if (!issues.isEmpty()) throw new ValidationException(issues);
      return new Fields(values);
    }

    String text(String field) {
      return values.get(field);
    }

    @Override
    public String toString() {
      return "Fields" + values.keySet(); // values are passwords and tokens
    }
  }
}
