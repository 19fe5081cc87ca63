package io.periscope.identity;

import com.typesafe.config.Config;
import io.periscope.config.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code periscope.identity} block: GitHub ({@code GITHUB_*}) and the OpenID Connect providers
 * named by {@code OIDC_PROVIDERS}, each from {@code OIDC_<NAME>_ISSUER}, {@code _CLIENT_ID}, {@code
 * _CLIENT_SECRET} and optionally {@code _SCOPES} (see {@link io.periscope.config.Profiles}). A
 * provider without a client id is not configured; a named OIDC provider missing a setting stops the
 * start with the variable to set.
 */
public record IdentityProviderSettings(Optional<GitHub> github, List<Oidc> oidc) {
  static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");

  /** Names the /auth routes use themselves. */
  static final Set<String> RESERVED =
      Set.of(
          GitHubProvider.NAME,
          "login",
          "register",
          "verify-email",
          "forgot-password",
          "reset-password");

  /**
   * @param allowedOrgs when not empty, only members of one of these organizations (lower-case
   *     logins) sign in through GitHub (GITHUB_ALLOWED_ORGS)
   */
  public record GitHub(
      String clientId,
      String clientSecret,
      String webBaseUrl,
      String apiBaseUrl,
      List<String> allowedOrgs) {
    public GitHub {
      allowedOrgs =
          allowedOrgs == null
              ? List.of()
              : allowedOrgs.stream().map(o -> o.toLowerCase(java.util.Locale.ROOT)).toList();
    }

    public GitHub(String clientId, String clientSecret, String webBaseUrl, String apiBaseUrl) {
      this(clientId, clientSecret, webBaseUrl, apiBaseUrl, List.of());
    }

    @Override
    public String toString() {
      return "GitHub[clientId="
          + clientId
          + ", web="
          + webBaseUrl
          + ", api="
          + apiBaseUrl
          + ", allowedOrgs="
          + allowedOrgs
          + "]"; // never the secret
    }
  }

  public record Oidc(
      String name, String issuer, String clientId, String clientSecret, String scopes) {
    @Override
    public String toString() {
      return "Oidc[name="
          + name
          + ", issuer="
          + issuer
          + ", clientId="
          + clientId
          + "]"; // never the secret
    }
  }

  public static IdentityProviderSettings from(Config config) {
    Config c = config.getConfig("periscope.identity");
    Config g = c.getConfig("github");
    Optional<GitHub> github =
        g.getString("client-id").isBlank()
            ? Optional.empty()
            : Optional.of(
                new GitHub(
                    g.getString("client-id"),
                    required(g, "client-secret", "GITHUB_CLIENT_SECRET"),
                    trimSlash(g.getString("web-base-url")),
                    trimSlash(g.getString("api-base-url")),
                    Settings.commaList(g.getString("allowed-orgs"))));
    List<Oidc> oidc = new ArrayList<>();
    for (String name : Settings.commaList(c.getString("oidc-providers"))) {
      if (!NAME.matcher(name).matches() || RESERVED.contains(name)) {
        throw new IllegalArgumentException(
            "OIDC_PROVIDERS: '"
                + name
                + "' must be 1 to 32 lower-case letters, digits "
                + "or '-', starting with a letter, and none of "
                + RESERVED);
      }
      String env = "OIDC_" + name.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_";
      Config p =
          c.hasPath("oidc." + name)
              ? c.getConfig("oidc." + name)
              : com.typesafe.config.ConfigFactory.empty();
      oidc.add(
          new Oidc(
              name,
              required(p, "issuer", env + "ISSUER"),
              required(p, "client-id", env + "CLIENT_ID"),
              required(p, "client-secret", env + "CLIENT_SECRET"),
              p.hasPath("scopes") && !p.getString("scopes").isBlank()
                  ? p.getString("scopes")
                  : "openid email profile"));
    }
    return new IdentityProviderSettings(github, List.copyOf(oidc));
  }

  private static String required(Config c, String path, String variable) {
    if (!c.hasPath(path) || c.getString(path).isBlank())
      throw new IllegalArgumentException(variable + " is not set");
    return c.getString(path).trim();
  }

  private static String trimSlash(String url) {
    String u = url.trim();
    return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
  }
}
