package io.periscope.identity;

import io.periscope.account.Accounts;
import io.periscope.account.IdentityLinks;
import io.periscope.account.Registration;
import io.periscope.entity.Failures;
import io.periscope.json.ValidationException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import okhttp3.OkHttpClient;

/**
 * Sign-in through identity providers: {@link #start} sends the browser to the provider with a fresh
 * flow sealed in a cookie; {@link #finish} opens the cookie on whichever node the callback reaches,
 * checks the state, has the provider say who signed in (with a verified e-mail address), and signs
 * in the account linked to that provider account, or a new one ({@link IdentityLinks}).
 */
public final class IdentitySignIn {

  /** How long a started sign-in may take at the provider. */
  public static final Duration FLOW_LIFETIME = Duration.ofMinutes(10);

  private final Map<String, IdentityProvider> providers = new LinkedHashMap<>();
  private final boolean githubConfigured;
  private final IdentityLinks links;
  private final SignInFlows flows;
  private final String publicUrl;
  private final Clock clock;

  public IdentitySignIn(
      IdentityProviderSettings settings,
      OkHttpClient client,
      IdentityLinks links,
      String serviceSecret,
      String publicUrl,
      Clock clock) {
    settings
        .github()
        .ifPresent(g -> providers.put(GitHubProvider.NAME, new GitHubProvider(g, client)));
    settings.oidc().forEach(o -> providers.put(o.name(), new OidcProvider(o, client)));
    this.githubConfigured = settings.github().isPresent();
    this.links = links;
    this.flows = new SignInFlows(serviceSecret);
    this.publicUrl = publicUrl;
    this.clock = clock;
  }

  /** For /config/status: {@code github} always, and each configured OIDC provider by name. */
  public Map<String, Boolean> status() {
    Map<String, Boolean> status = new LinkedHashMap<>();
    status.put(GitHubProvider.NAME, githubConfigured);
    providers.keySet().forEach(name -> status.put(name, true));
    return status;
  }

  public boolean configured(String provider) {
    return providers.containsKey(provider);
  }

  /** Where the callback of {@code provider} is: what its client registration must list. */
  public URI callbackUri(String provider) {
    return URI.create(publicUrl + "/auth/" + provider + "/callback");
  }

  /** Whether the flow cookie may only travel over HTTPS (when the service is reached over it). */
  public boolean secureCookie() {
    return publicUrl.startsWith("https:");
  }

  /** The provider's sign-in page, and the sealed flow to set as a cookie. */
  public record Start(URI redirect, String flowCookie) {
    @Override
    public String toString() {
      return "Start[redirect=" + redirect.getHost() + "]";
    }
  }

  /** A web client's nonce: 16 to 128 characters of base64url. */
  public static final java.util.regex.Pattern CLIENT_NONCE =
      java.util.regex.Pattern.compile("[A-Za-z0-9_-]{16,128}");

  /**
   * @param clientNonce the web client's nonce ({@link #CLIENT_NONCE}), handed back by {@link
   *     #finish} with the session
   */
  public CompletionStage<Start> start(String provider, Optional<String> clientNonce) {
    IdentityProvider p = providers.get(provider);
    SignInFlow flow =
        SignInFlow.start(provider, clock.instant().plus(FLOW_LIFETIME), clientNonce.orElse(null));
    return p.authorizationUri(flow, callbackUri(provider))
        .thenApply(uri -> new Start(uri, flows.seal(flow)));
  }

  /** A finished sign-in: its session, and the nonce of the web client that started it. */
  public record SignedIn(Accounts.Session session, Optional<String> clientNonce) {}

  /**
   * Finishes a sign-in from the callback's query ({@code code}, {@code state} or the provider's
   * {@code error}) and the flow cookie. Fails with {@link SignInFailure}.
   */
  public CompletionStage<SignedIn> finish(
      String provider,
      Optional<String> code,
      Optional<String> state,
      Optional<String> error,
      Optional<String> flowCookie) {
    IdentityProvider p = providers.get(provider);
    Optional<SignInFlow> flow =
        flows.open(flowCookie.orElse(null), provider, state.orElse(null), clock.instant());
    if (flow.isEmpty()) {
      return failed(
          SignInFailure.Reason.INVALID_STATE,
          "the sign-in state is missing, expired or does not match: start the sign-in again");
    }
    if (error.isPresent() || code.isEmpty()) {
      return failed(
          SignInFailure.Reason.DENIED,
          "the identity provider did not sign you in (" + errorCode(error.orElse("no code")) + ")");
    }
    return p.identity(code.get(), flow.get(), callbackUri(provider))
        .thenCompose(links::signIn)
        .thenApply(session -> new SignedIn(session, Optional.ofNullable(flow.get().clientNonce())))
        .exceptionally(
            e -> {
              throw asSignInFailure(Failures.unwrap(e));
            });
  }

  /** What the account rules refused, as the sign-in's failure; anything else as it is. */
  private static RuntimeException asSignInFailure(Throwable t) {
    if (t instanceof IdentityLinks.LinkMailed m)
      return new SignInFailure(SignInFailure.Reason.LINK_MAILED, m.getMessage());
    if (t instanceof IdentityLinks.LinkRefused r)
      return new SignInFailure(SignInFailure.Reason.LINK_REFUSED, r.getMessage());
    if (t instanceof Registration.Refused r)
      return new SignInFailure(SignInFailure.Reason.SIGN_UP_CLOSED, r.getMessage());
    if (t instanceof ValidationException)
      return new SignInFailure(
          SignInFailure.Reason.UNVERIFIED_EMAIL,
          "the provider's e-mail address is not one Periscope takes");
    return t instanceof RuntimeException r ? r : new CompletionException(t);
  }

  /** A provider's error code as far as it is a plain OAuth code; anything else is not repeated. */
  static String errorCode(String code) {
    return code.matches("[a-z_ ]{1,60}") ? code : "unreadable error";
  }

  private static <T> CompletionStage<T> failed(SignInFailure.Reason reason, String message) {
    return CompletableFuture.failedFuture(new SignInFailure(reason, message));
  }
}
