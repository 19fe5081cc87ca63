package io.periscope.notify;

import java.net.URI;
import java.util.Optional;

/**
 * What may be shown of a channel identifier: its secret parts as {@value #MASK} — a URL's user
 * part's secret (an ntfy token or password, a Gotify or Matrix token) and its query, the last path
 * segment of a Slack or Discord webhook URL (their token), a Pushover channel's keys but the first
 * four characters of the user key — and the rest as it is ({@code
 * ntfy:https://alice:••••@ntfy.example.org/alerts}). A stored identifier ({@code
 * channels.SealedChannels}) is its masked form, {@value #MARK} and its ciphertext: its mask is the
 * part before.
 */
public final class ChannelMask {
  public static final String MASK = "••••";

  /** What separates a sealed identifier's masked form from its ciphertext. */
  public static final String MARK = "#sealed=";

  private ChannelMask() {}

  /** The identifier, sealed or plain, as it may be shown. */
  public static String mask(String id) {
    if (id == null) return null;
    int mark = id.lastIndexOf(MARK);
    return mark >= 0 ? id.substring(0, mark) : maskPlain(id);
  }

  /** Whether it is in the sealed form (whether or not this keyring can open it). */
  public static boolean sealed(String id) {
    return id != null && id.contains(MARK);
  }

  /** Whether its credential is shown as {@value #MASK}: a client sent back what it was shown. */
  public static boolean masked(String id) {
    return id != null && id.contains(MASK) && !sealed(id);
  }

  private static String maskPlain(String id) {
    Optional<ChannelId> parsed = ChannelId.parse(id);
    if (parsed.isEmpty() || parsed.get().target() == null) return id;
    ChannelId c = parsed.get();
    String scheme = id.substring(0, id.indexOf(':') + 1);
    return switch (c.kind()) {
      case TELEGRAM, EMAIL, PUSH -> id;
      case PUSHOVER -> scheme + c.target().substring(0, 4) + MASK + "@" + MASK;
      case SLACK, DISCORD -> scheme + maskUrl(c.target(), true);
      default -> scheme + maskUrl(c.target(), false);
    };
  }

  /**
   * The URL with its user part's secret, its query and, when {@code tokenPath}, its last segment
   * masked.
   */
  private static String maskUrl(String url, boolean tokenPath) {
    URI u = URI.create(url);
    StringBuilder out = new StringBuilder(u.getScheme()).append("://");
    String authority = u.getRawAuthority();
    String user = u.getRawUserInfo();
    if (user != null && !user.isEmpty()) {
      int colon = user.indexOf(':');
      out.append(colon < 0 ? MASK : user.substring(0, colon + 1) + MASK).append('@');
    }
    out.append(authority.substring(authority.lastIndexOf('@') + 1));
    String path = u.getRawPath() == null ? "" : u.getRawPath();
    int last = path.lastIndexOf('/');
    if (tokenPath && last >= 0 && last < path.length() - 1)
      path = path.substring(0, last + 1) + MASK;
    out.append(path);
    if (u.getRawQuery() != null) out.append('?').append(MASK);
    if (u.getRawFragment() != null) out.append('#').append(u.getRawFragment());
    return out.toString();
  }
}
