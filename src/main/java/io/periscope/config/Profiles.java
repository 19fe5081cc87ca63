package io.periscope.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigResolveOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Chooses and loads the HOCON profile: {@code embedded} by default, {@code postgres} when
 * DATABASE_URL is set, or the one named by PERISCOPE_PROFILE (local1..3, kubernetes). Environment
 * variables reach the profiles through their ${?VAR} lines; values that must be computed (an
 * absolute data directory) are layered on top.
 */
public final class Profiles {
  /** The actor system's name, which is part of every node's remoting address. */
  public static final String SYSTEM_NAME = "periscope";

  private Profiles() {}

  public static String chosen(Map<String, String> env) {
    String named = env.getOrDefault("PERISCOPE_PROFILE", "").trim();
    if (!named.isEmpty()) return named;
    return env.getOrDefault("DATABASE_URL", "").isBlank() ? "embedded" : "postgres";
  }

  public static Config load(String profile) {
    return load(profile, ConfigFactory.empty());
  }

  /**
   * What the environment sets that HOCON's ${?VAR} cannot: SEED_NODES, comma-separated {@code
   * host:port} remoting addresses, becomes the list of seed nodes; the variables read from {@code
   * X_FILE} files ({@link SecretFiles}) are placed at the root, where a ${?X} substitution looks
   * before the process environment.
   */
  public static Config environment(Map<String, String> env) {
    List<String> seeds =
        Settings.commaList(env.getOrDefault("SEED_NODES", "")).stream()
            .map(address -> "pekko://" + SYSTEM_NAME + "@" + address)
            .toList();
    Config fromFiles =
        ConfigFactory.parseMap(SecretFiles.fromFiles(env)).withFallback(oidcProviders(env));
    return seeds.isEmpty()
        ? fromFiles
        : ConfigFactory.parseMap(Map.of("pekko.cluster.seed-nodes", seeds)).withFallback(fromFiles);
  }

  /** Loads a profile with {@code overrides} taking precedence over everything else. */
  public static Config load(String profile, Config overrides) {
    Config unresolved =
        overrides
            .withFallback(ConfigFactory.systemProperties())
            .withFallback(oidcProviders(System.getenv()))
            .withFallback(ConfigFactory.parseResourcesAnySyntax(profile))
            .withFallback(ConfigFactory.defaultReference());
    if (!unresolved.hasPath("periscope")) {
      throw new IllegalArgumentException("unknown configuration profile '" + profile + "'");
    }
    Config partly = unresolved.resolve(ConfigResolveOptions.defaults().setAllowUnresolved(true));
    Map<String, Object> computed = new java.util.HashMap<>();
    computed.put(
        "periscope.data-dir-absolute",
        Path.of(partly.getString("periscope.data-dir")).toAbsolutePath().normalize().toString());
    // HOCON cannot choose a value by a flag: REMOTE_TLS (periscope.remote.tls.enabled) picks the
    // transport here, whose TLS settings conf/periscope.conf holds.
    if (partly.getBoolean("periscope.remote.tls.enabled")) {
      computed.put("pekko.remote.artery.transport", "tls-tcp");
    }
    return overrides
        .withFallback(ConfigFactory.parseMap(computed))
        .withFallback(unresolved)
        .resolve();
  }

  /**
   * The OpenID Connect providers named by OIDC_PROVIDERS: HOCON cannot name variables it does not
   * know, so each name's OIDC_&lt;NAME&gt;_ISSUER, _CLIENT_ID, _CLIENT_SECRET and _SCOPES are
   * placed here (NAME upper-cased, '-' as '_').
   */
  public static Config oidcProviders(Map<String, String> env) {
    Map<String, Object> values = new java.util.HashMap<>();
    for (String name : Settings.commaList(env.getOrDefault("OIDC_PROVIDERS", ""))) {
      String prefix = "OIDC_" + name.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_";
      Map.of(
              "ISSUER",
              "issuer",
              "CLIENT_ID",
              "client-id",
              "CLIENT_SECRET",
              "client-secret",
              "SCOPES",
              "scopes")
          .forEach(
              (variable, key) -> {
                String value = env.get(prefix + variable);
                if (value != null)
                  values.put("periscope.identity.oidc.\"" + name + "\"." + key, value);
              });
    }
    return ConfigFactory.parseMap(values);
  }
}
