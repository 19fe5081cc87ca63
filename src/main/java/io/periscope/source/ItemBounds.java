package io.periscope.source;

import io.periscope.crypto.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The longest title, link, summary and identity an item may carry into a run's state, its events
 * and the cluster's messages. Every source's items pass here ({@link SourceResult#ok}), so a
 * hostile feed or search answer cannot make a run's items, the seen-set or a run record large.
 */
public final class ItemBounds {
  public static final int MAX_TITLE_CHARS = 300;

  /** Longer links are dropped, not cut: a cut URL points somewhere else. */
  public static final int MAX_URL_CHARS = 2_048;

  /** Summaries are context for the judge when a page cannot be read, not the article. */
  public static final int MAX_SUMMARY_CHARS = 1_000;

  /**
   * Longer identities become {@code sha256:<hex>} of themselves: still one per distinct identity.
   */
  public static final int MAX_IDENTITY_CHARS = 512;

  private ItemBounds() {}

  public static Item bounded(Item item) {
    String identity = boundedIdentity(item.identity());
    String title = cut(item.title(), MAX_TITLE_CHARS);
    String url =
        item.url() != null && item.url().length() > MAX_URL_CHARS ? null : webLink(item.url());
    String summary = cut(item.summary(), MAX_SUMMARY_CHARS);
    List<String> aliases = item.aliases().stream().map(ItemBounds::boundedIdentity).toList();
    if (identity == item.identity()
        && title == item.title()
        && url == item.url()
        && summary == item.summary()
        && aliases.equals(item.aliases())) return item;
    return new Item(
        identity,
        title,
        url,
        summary,
        item.published(),
        item.sourceType(),
        item.sourceValue(),
        item.trust(),
        aliases);
  }

  /**
   * {@code url} when it is an absolute http or https URL, else null: a feed's {@code javascript:}
   * or {@code data:} link is never kept as an item's or evidence's link.
   */
  public static String webLink(String url) {
    if (url == null) return null;
    int colon = url.indexOf(':');
    String scheme = colon < 0 ? "" : url.substring(0, colon).toLowerCase(Locale.ROOT);
    return (scheme.equals("http") || scheme.equals("https")) && url.startsWith("//", colon + 1)
        ? url
        : null;
  }

  /** Aliases are bounded alike, so an alias is the identity an earlier run recorded. */
  private static String boundedIdentity(String identity) {
    return identity != null && identity.length() > MAX_IDENTITY_CHARS ? digest(identity) : identity;
  }

  /** {@code text} cut to {@code max} characters, never between the halves of a surrogate pair. */
  public static String cut(String text, int max) {
    if (text == null || text.length() <= max) return text;
    int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
    return text.substring(0, end);
  }

  static String digest(String text) {
    return "sha256:" + sha256Hex(text);
  }

  /** SHA-256 of the text's UTF-8 bytes, in lower-case hex. */
  static String sha256Hex(String text) {
    byte[] hash = Sha256.digest().digest(text.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(hash);
  }
}
