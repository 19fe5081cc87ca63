package io.periscope.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Docker and Kubernetes secrets: each variable that carries a secret ({@link #SECRETS}, and every
 * {@code OIDC_<NAME>_CLIENT_SECRET}) may be given as {@code X_FILE}, the path of a file holding its
 * value (one trailing line break dropped), so secrets stay out of the process environment. Setting
 * both (to a non-empty value) is an error, as is a file that cannot be read. Other {@code _FILE}
 * variables belong to other programs and are left alone.
 */
public final class SecretFiles {
  static final String SUFFIX = "_FILE";

  static final Set<String> SECRETS =
      Set.of(
          "AUTH_JWT_SECRET",
          "ENCRYPTION_KEY",
          "DATABASE_URL",
          "DATABASE_USER",
          "DATABASE_PASSWORD",
          "MODEL_API_KEYS",
          "SEARCH_API_KEYS",
          "TELEGRAM_BOT_TOKEN",
          "SMTP_USERNAME",
          "SMTP_PASSWORD",
          "GITHUB_CLIENT_SECRET",
          "VAPID_PRIVATE_KEY",
          "METRICS_TOKEN");

  private SecretFiles() {}

  /** The environment with each {@code X_FILE} read into {@code X}. */
  public static Map<String, String> read(Map<String, String> env) {
    Map<String, String> merged = new HashMap<>(env);
    for (Map.Entry<String, String> entry : env.entrySet()) {
      if (!entry.getKey().endsWith(SUFFIX)) continue;
      String variable = entry.getKey().substring(0, entry.getKey().length() - SUFFIX.length());
      if (!isSecret(variable)) continue;
      if (!env.getOrDefault(variable, "").isEmpty()) {
        throw new IllegalArgumentException(
            "set " + variable + " or " + entry.getKey() + ", not both");
      }
      merged.put(variable, contents(entry.getKey(), Path.of(entry.getValue())));
    }
    return merged;
  }

  /** The variables of {@code env} that came from a file, by name. */
  static Map<String, String> fromFiles(Map<String, String> env) {
    Map<String, String> read = new HashMap<>();
    env.forEach(
        (name, value) -> {
          if (isSecret(name) && env.containsKey(name + SUFFIX)) read.put(name, value);
        });
    return read;
  }

  public static boolean isSecret(String variable) {
    return SECRETS.contains(variable)
        || (variable.startsWith("OIDC_") && variable.endsWith("_CLIENT_SECRET"));
  }

  private static String contents(String variable, Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      if (text.endsWith("\n")) text = text.substring(0, text.length() - 1);
      if (text.endsWith("\r")) text = text.substring(0, text.length() - 1);
      return text;
    } catch (IOException e) {
      // the path names the file, never its contents
      throw new IllegalArgumentException(variable + ": cannot read " + file);
    }
  }
}
