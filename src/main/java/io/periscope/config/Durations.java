package io.periscope.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses AUTH_TOKEN_TTL: plain seconds, or a number with s, m, h or d. */
public final class Durations {
  private static final Pattern TTL = Pattern.compile("(\\d+)\\s*([smhd]?)");

  /** Ten years: beyond it a token lifetime is a typo, and timestamps would overflow. */
  static final Duration MAX_TTL = Duration.ofDays(3650);

  private Durations() {}

  public static Duration parseTtl(String text) {
    Matcher m = TTL.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "AUTH_TOKEN_TTL must be seconds or a number with s, m, h or d: '" + text + "'");
    }
    Duration ttl;
    try {
      long n = Long.parseLong(m.group(1));
      ttl =
          switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofSeconds(n);
          };
    } catch (NumberFormatException | ArithmeticException tooBig) {
      ttl = MAX_TTL.plusSeconds(1);
    }
    if (ttl.isZero()) throw new IllegalArgumentException("AUTH_TOKEN_TTL must be positive");
    if (ttl.compareTo(MAX_TTL) > 0)
      throw new IllegalArgumentException("AUTH_TOKEN_TTL must be at most 3650 days");
    return ttl;
  }

  /**
   * A duration as settings write it, in its largest whole unit: {@code 24h}, {@code 3m}, {@code
   * 90s}.
   */
  public static String spelled(Duration d) {
    long s = d.toSeconds();
    if (d.toMillis() % 1000 != 0) return d.toMillis() + "ms";
    if (s != 0 && s % 86400 == 0) return s / 86400 + "d";
    if (s != 0 && s % 3600 == 0) return s / 3600 + "h";
    if (s != 0 && s % 60 == 0) return s / 60 + "m";
    return s + "s";
  }
}
