package io.periscope.source;

import io.periscope.notify.ChannelId;
import java.util.Optional;

/** What a feed's address must be wherever one comes in: a page's link, an OPML outline, a watch. */
public final class FeedUrls {
  /** The longest source value a watch holds, a feed's address included. */
  public static final int MAX_LENGTH = 2000;

  private FeedUrls() {}

  /** {@code url} stripped when it is an http(s) URL of at most {@link #MAX_LENGTH} characters. */
  public static Optional<String> valid(String url) {
    if (url == null) return Optional.empty();
    String stripped = url.strip();
    if (stripped.isEmpty() || stripped.length() > MAX_LENGTH) return Optional.empty();
    return ChannelId.httpUrl(stripped);
  }
}
