package io.periscope.source;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What makes a collected item one item, neither merging two nor splitting one (docs/feeds.md,
 * "Identity"). A feed entry's identity is its guid when the feed's guids are distinct, else its
 * link and title; a search result's is its URL. Links count in their {@link
 * NormalizedUrls#forIdentity identity form}.
 */
public final class ItemIdentity {
  private ItemIdentity() {}

  /** An item's identity and the other identities an earlier run may have recorded it by. */
  record Named(String identity, List<String> aliases) {}

  /**
   * The identities of a feed's entries, in order; null for an entry with neither id, link nor title
   * (nothing to know it by, nothing to cite). The guids count only when no guid is given to two of
   * the feed's entries (FreshRSS's test): a feed that repeats one guid (its own URL, a category, a
   * constant) is not naming its items by guid, so every entry is known by link and title, as is an
   * entry without a guid in any feed.
   *
   * <p>Each entry's link and title are taken from {@code linksAndTitles} (by the entry object)
   * where it holds them, and put there where it does not: a feed's next read gives back the entries
   * it already knew as the same objects ({@link EntryMemo}), whose link and title need no second
   * normalizing and hashing.
   */
  static List<Named> ofFeed(
      List<FeedReader.Entry> entries, Map<FeedReader.Entry, String> linksAndTitles) {
    Set<String> guids = new HashSet<>();
    boolean guidsDistinct = true;
    for (FeedReader.Entry e : entries) {
      if (e.id() != null && knowable(e) && !guids.add(e.id())) guidsDistinct = false;
    }
    Map<String, Integer> counts = new HashMap<>();
    for (FeedReader.Entry e : entries) {
      if (knowable(e) && !(guidsDistinct && e.id() != null))
        counts.merge(
            linksAndTitles.computeIfAbsent(e, ItemIdentity::linkAndTitle), 1, Integer::sum);
    }
    List<Named> named = new ArrayList<>(entries.size());
    for (FeedReader.Entry e : entries) {
      if (!knowable(e)) {
        named.add(null);
        continue;
      }
      String linkAndTitle = linksAndTitles.computeIfAbsent(e, ItemIdentity::linkAndTitle);
      String identity = guidsDistinct && e.id() != null ? e.id() : linkAndTitle;
      // entries that share link and title (posts of one page without titles) differ by date
      if (identity.equals(linkAndTitle) && counts.get(linkAndTitle) > 1 && e.published() != null)
        identity = ItemBounds.sha256Hex(linkAndTitle + "\n" + e.published());
      // the identity earlier versions recorded: guid, else link as written, else title and link
      String former =
          e.id() != null ? e.id() : e.link() != null ? e.link() : linkAndTitle(e.title(), null);
      Set<String> aliases = new LinkedHashSet<>();
      if (e.id() != null) aliases.add(e.id());
      aliases.add(linkAndTitle);
      aliases.add(former);
      aliases.remove(identity);
      named.add(new Named(identity, List.copyOf(aliases)));
    }
    return named;
  }

  /** A search result: its URL in identity form; the URL as the provider gave it is an alias. */
  static Named ofUrl(String url) {
    String identity = NormalizedUrls.forIdentity(url);
    return new Named(identity, identity.equals(url) ? List.of() : List.of(url));
  }

  /** Link and title as one identity: SHA-256 (hex) of the title, a newline and the link. */
  static String linkAndTitle(String title, String link) {
    return ItemBounds.sha256Hex((title == null ? "" : title) + "\n" + (link == null ? "" : link));
  }

  private static String linkAndTitle(FeedReader.Entry e) {
    return linkAndTitle(e.title(), NormalizedUrls.forIdentity(e.link()));
  }

  private static boolean knowable(FeedReader.Entry e) {
    return e.id() != null || e.link() != null || e.title() != null;
  }
}
