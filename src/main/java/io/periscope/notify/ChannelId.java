package io.periscope.notify;

import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A notification channel identifier from a watch's {@code channels}, as docs/http-interface.md's
 * watch schema lists them: {@code telegram}, {@code telegram:<chat id>}, {@code email:<address>},
 * {@code webhook:<url>}, {@code ntfy:<url>}, {@code slack:<url>}, {@code discord:<url>}, {@code
 * push}, {@code gotify:<url>}, {@code matrix:<url>}, {@code pushover:<user key>@<app token>} and
 * {@code apprise:<url>}. A URL's user part carries a channel's credential (an ntfy access token or
 * user and password, a Gotify application token, a Matrix access token), as Apprise writes them; it
 * is sent as a header, never in the URL.
 */
public record ChannelId(Kind kind, String target) {

  public enum Kind {
    TELEGRAM,
    EMAIL,
    WEBHOOK,
    NTFY,
    SLACK,
    DISCORD,
    PUSH,
    GOTIFY,
    MATRIX,
    PUSHOVER,
    APPRISE
  }

  // Numeric chat ids (negative for groups) or a public @channelname.
  private static final Pattern CHAT_ID = Pattern.compile("-?\\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31}");
  private static final int MAX_LENGTH = 2048;

  // Pushover's user (or group) keys and application tokens: 30 letters and digits.
  private static final Pattern PUSHOVER = Pattern.compile("[A-Za-z0-9]{30}@[A-Za-z0-9]{30}");

  // A Matrix room id, !opaque:server, as the URL's whole path.
  private static final Pattern MATRIX_ROOM = Pattern.compile("/![^/:]+:[^/]+");

  /** The parsed identifier, or empty with no explanation needed beyond "unknown channel". */
  public static Optional<ChannelId> parse(String id) {
    if (id == null || id.length() > MAX_LENGTH) return Optional.empty();
    if (id.equals("telegram")) return Optional.of(new ChannelId(Kind.TELEGRAM, null));
    if (id.equals("push")) return Optional.of(new ChannelId(Kind.PUSH, null));
    int colon = id.indexOf(':');
    if (colon < 0) return Optional.empty();
    String scheme = id.substring(0, colon);
    String rest = id.substring(colon + 1);
    return switch (scheme) {
      case "telegram" ->
          CHAT_ID.matcher(rest).matches()
              ? Optional.of(new ChannelId(Kind.TELEGRAM, rest))
              : Optional.empty();
      case "email" ->
          EmailAddresses.valid(rest)
              ? Optional.of(new ChannelId(Kind.EMAIL, rest))
              : Optional.empty();
      case "webhook" -> httpUrl(rest).map(u -> new ChannelId(Kind.WEBHOOK, u));
      case "ntfy" -> httpUrl(rest).map(u -> new ChannelId(Kind.NTFY, u));
      case "slack" -> httpUrl(rest).map(u -> new ChannelId(Kind.SLACK, u));
      case "discord" -> httpUrl(rest).map(u -> new ChannelId(Kind.DISCORD, u));
      case "gotify" ->
          httpUrl(rest)
              .filter(u -> credential(u).isPresent())
              .map(u -> new ChannelId(Kind.GOTIFY, u));
      case "matrix" ->
          httpUrl(rest)
              .filter(u -> credential(u).isPresent())
              .filter(u -> MATRIX_ROOM.matcher(URI.create(u).getRawPath()).matches())
              .map(u -> new ChannelId(Kind.MATRIX, u));
      case "pushover" ->
          PUSHOVER.matcher(rest).matches()
              ? Optional.of(new ChannelId(Kind.PUSHOVER, rest))
              : Optional.empty();
      case "apprise" -> httpUrl(rest).map(u -> new ChannelId(Kind.APPRISE, u));
      default -> Optional.empty();
    };
  }

  /**
   * The identifier as a watch lists it, e.g. {@code telegram} or {@code webhook:https://…}: the
   * inverse of parse.
   */
  public String id() {
    String scheme = kind.name().toLowerCase(java.util.Locale.ROOT);
    return target == null ? scheme : scheme + ":" + target;
  }

  /**
   * The kind of an identifier as metrics and operator alerts name it ({@code ntfy}, {@code
   * webhook}, …), {@code unknown} when its scheme is none: read off its scheme alone, so a stored
   * (sealed) identifier names its kind too.
   */
  public static String kindName(String id) {
    String scheme = id == null ? "" : id.indexOf(':') < 0 ? id : id.substring(0, id.indexOf(':'));
    return java.util.Arrays.stream(Kind.values())
        .map(k -> k.name().toLowerCase(java.util.Locale.ROOT))
        .filter(scheme::equals)
        .findFirst()
        .orElse("unknown");
  }

  /** A URL's user part (before the {@code @}), percent-decoded, when it has a non-empty one. */
  public static Optional<String> credential(String url) {
    try {
      String user = new URI(url).getUserInfo();
      return user == null || user.isEmpty() ? Optional.empty() : Optional.of(user);
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /** The value when it is an absolute http(s) URL with a host. */
  public static Optional<String> httpUrl(String value) {
    try {
      URI uri = new URI(value);
      String scheme = uri.getScheme();
      boolean web = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
      return web && uri.getHost() != null && !uri.getHost().isEmpty()
          ? Optional.of(value)
          : Optional.empty();
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
