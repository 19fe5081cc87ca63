package io.periscope.identity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.periscope.config.Profiles;
import java.util.Map;
import org.junit.Test;

/**
 * Identity providers from the environment: OIDC_PROVIDERS and its per-name variables, and what is
 * refused.
 */
public class IdentityProviderSettingsTest {
  private static IdentityProviderSettings from(
      Map<String, String> env, Map<String, Object> overrides) {
    return IdentityProviderSettings.from(
        Profiles.load(
            "embedded",
            ConfigFactory.parseMap(overrides).withFallback(Profiles.oidcProviders(env))));
  }

  @Test
  public void nothingConfiguredIsNoProvider() {
    IdentityProviderSettings s = from(Map.of(), Map.of());
    assertTrue(s.github().isEmpty());
    assertEquals(0, s.oidc().size());
  }

  @Test
  public void eachNamedProviderReadsItsOwnVariables() {
    IdentityProviderSettings s =
        from(
            Map.of(
                "OIDC_PROVIDERS",
                "google, my-keycloak",
                "OIDC_GOOGLE_ISSUER",
                "https://accounts.google.com",
                "OIDC_GOOGLE_CLIENT_ID",
                "g-id",
                "OIDC_GOOGLE_CLIENT_SECRET",
                "g-secret",
                "OIDC_MY_KEYCLOAK_ISSUER",
                "https://sso.example.org/realms/home/",
                "OIDC_MY_KEYCLOAK_CLIENT_ID",
                "k-id",
                "OIDC_MY_KEYCLOAK_CLIENT_SECRET",
                "k-secret",
                "OIDC_MY_KEYCLOAK_SCOPES",
                "openid email"),
            Map.of("periscope.identity.oidc-providers", "google, my-keycloak"));
    assertEquals(
        new IdentityProviderSettings.Oidc(
            "google", "https://accounts.google.com", "g-id", "g-secret", "openid email profile"),
        s.oidc().get(0));
    assertEquals(
        "the issuer is kept exactly, its '/' too",
        new IdentityProviderSettings.Oidc(
            "my-keycloak",
            "https://sso.example.org/realms/home/",
            "k-id",
            "k-secret",
            "openid email"),
        s.oidc().get(1));
    assertTrue("secrets are never printed", !s.toString().contains("secret"));
  }

  @Test
  public void aNamedProviderMissingASettingStopsTheStartNamingTheVariable() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                from(
                    Map.of(
                        "OIDC_PROVIDERS",
                        "google",
                        "OIDC_GOOGLE_ISSUER",
                        "https://accounts.google.com"),
                    Map.of("periscope.identity.oidc-providers", "google")));
    assertEquals("OIDC_GOOGLE_CLIENT_ID is not set", e.getMessage());
    IllegalArgumentException secret =
        assertThrows(
            IllegalArgumentException.class,
            () -> from(Map.of(), Map.of("periscope.identity.github.client-id", "id")));
    assertEquals("GITHUB_CLIENT_SECRET is not set", secret.getMessage());
  }

  @Test
  public void reservedAndMalformedNamesAreRefused() {
    for (String name : new String[] {"github", "login", "Google", "has space"}) {
      assertThrows(
          name,
          IllegalArgumentException.class,
          () -> from(Map.of(), Map.of("periscope.identity.oidc-providers", name)));
    }
  }
}
