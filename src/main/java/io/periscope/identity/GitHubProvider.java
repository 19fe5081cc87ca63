package io.periscope.identity;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.auth.ProviderIdentity;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * GitHub's OAuth app flow: authorize on {@code <web>/login/oauth/authorize}, exchange the code on
 * {@code <web>/login/oauth/access_token}, then read {@code <api>/user} (the user's id, the subject
 * an account is bound to) and {@code <api>/user/emails}, taking the primary address if GitHub marks
 * it verified. GitHub answers a refused code with HTTP 200 and an {@code error} field.
 *
 * <p>With GITHUB_ALLOWED_ORGS, the flow also asks for {@code read:org} and reads {@code
 * <api>/user/orgs} (the first 100): a user who is a member of none of the organizations is refused,
 * whether or not an account exists.
 */
final class GitHubProvider implements IdentityProvider {
  static final String NAME = "github";
  private static final String SCOPES = "read:user user:email";

  private final IdentityProviderSettings.GitHub settings;
  private final IdentityHttp http;

  GitHubProvider(IdentityProviderSettings.GitHub settings, OkHttpClient client) {
    this.settings = settings;
    this.http = new IdentityHttp(client, "GitHub");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletionStage<URI> authorizationUri(SignInFlow flow, URI redirectUri) {
    HttpUrl url =
        HttpUrl.get(settings.webBaseUrl() + "/login/oauth/authorize")
            .newBuilder()
            .addQueryParameter("client_id", settings.clientId())
            .addQueryParameter("redirect_uri", redirectUri.toString())
            .addQueryParameter(
                "scope", settings.allowedOrgs().isEmpty() ? SCOPES : SCOPES + " read:org")
            .addQueryParameter("state", flow.state())
            .addQueryParameter("code_challenge", flow.codeChallenge())
            .addQueryParameter("code_challenge_method", "S256")
            .build();
    return CompletableFuture.completedFuture(url.uri());
  }

  @Override
  public CompletionStage<ProviderIdentity> identity(String code, SignInFlow flow, URI redirectUri) {
    return http.postForm(
            settings.webBaseUrl() + "/login/oauth/access_token",
            Map.of(
                "client_id",
                settings.clientId(),
                "client_secret",
                settings.clientSecret(),
                "code",
                code,
                "redirect_uri",
                redirectUri.toString(),
                "code_verifier",
                flow.codeVerifier()),
            Map.of("Accept", "application/json"))
        .thenCompose(
            answer -> {
              String accessToken = answer.path("access_token").asText("");
              if (accessToken.isEmpty()) {
                throw new SignInFailure(
                    SignInFailure.Reason.DENIED,
                    "GitHub refused the code ("
                        + IdentitySignIn.errorCode(answer.path("error").asText("no access token"))
                        + ")");
              }
              Map<String, String> headers =
                  Map.of(
                      "Authorization",
                      "Bearer " + accessToken,
                      "Accept",
                      "application/vnd.github+json");
              return memberOfAllowedOrg(headers)
                  .thenCompose(
                      member ->
                          http.get(settings.apiBaseUrl() + "/user", headers)
                              .thenCombine(
                                  http.get(settings.apiBaseUrl() + "/user/emails", headers),
                                  (user, emails) -> {
                                    String address = primaryVerified(emails);
                                    return new ProviderIdentity(
                                        NAME,
                                        settings.apiBaseUrl(),
                                        userId(user),
                                        address,
                                        user.path("login").asText(address));
                                  }));
            });
  }

  /** Refuses a user in none of GITHUB_ALLOWED_ORGS; passes everybody when it is not set. */
  private CompletionStage<Boolean> memberOfAllowedOrg(Map<String, String> headers) {
    if (settings.allowedOrgs().isEmpty()) return CompletableFuture.completedFuture(true);
    return http.get(settings.apiBaseUrl() + "/user/orgs?per_page=100", headers)
        .thenApply(
            orgs -> {
              if (!orgs.isArray()) {
                throw new SignInFailure(
                    SignInFailure.Reason.UNAVAILABLE, "GitHub's organization list is not an array");
              }
              for (JsonNode org : orgs) {
                String login = org.path("login").asText("").toLowerCase(java.util.Locale.ROOT);
                if (settings.allowedOrgs().contains(login)) return true;
              }
              throw new SignInFailure(
                  SignInFailure.Reason.NOT_IN_ORGANIZATION,
                  "this instance admits GitHub sign-ins of members of certain organizations only;"
                      + " if you are one, allow this application to see that membership");
            });
  }

  /** GitHub's numeric user id, which stays when the login or the addresses change. */
  private static String userId(JsonNode user) {
    if (!user.path("id").isIntegralNumber()) {
      throw new SignInFailure(SignInFailure.Reason.UNAVAILABLE, "GitHub's user has no id");
    }
    return user.get("id").asText();
  }

  private static String primaryVerified(JsonNode emails) {
    if (!emails.isArray()) {
      throw new SignInFailure(
          SignInFailure.Reason.UNAVAILABLE, "GitHub's e-mail list is not a JSON array");
    }
    for (JsonNode e : emails) {
      if (isTrue(e.path("primary")) && isTrue(e.path("verified")) && e.path("email").isTextual()) {
        return e.get("email").asText();
      }
    }
    throw new SignInFailure(
        SignInFailure.Reason.UNVERIFIED_EMAIL,
        "GitHub has no verified primary e-mail address for this account");
  }

  private static boolean isTrue(JsonNode flag) {
    return flag.isBoolean() && flag.booleanValue();
  }
}
