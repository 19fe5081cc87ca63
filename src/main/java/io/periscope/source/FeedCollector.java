package io.periscope.source;

import com.rometools.rome.feed.synd.SyndContent;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.feed.synd.SyndLink;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.SyndFeedInput;
import com.rometools.rome.io.XmlReader;
import io.periscope.net.SafeHttp;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import okhttp3.HttpUrl;
import org.jsoup.Jsoup;

/**
 * Collects an RSS or Atom feed through {@link SafeHttp} and Rome. Feeds that send an ETag or
 * Last-Modified are fetched conditionally; a 304 answers with the items of the last successful
 * parse, so the run still sees them (which of them are fresh is the watch's business, not the
 * collector's).
 */
public final class FeedCollector {
  public static final String SOURCE_TYPE = "rss";
  public static final long MAX_FEED_BYTES = 5L * 1024 * 1024;

  /** Feeds list newest first: entries past this many are dropped (and never cached). */
  public static final int MAX_ITEMS_PER_FEED = 200;

  /**
   * Summaries are context for the judge, not the article: a feed carrying whole articles is cut
   * here.
   */
  public static final int MAX_SUMMARY_CHARS = 5_000;

  /** Feeds whose validators and items are remembered, least recently used forgotten first. */
  public static final int DEFAULT_REMEMBERED_FEEDS = 1_000;

  private static final String ACCEPT =
      "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5";

  /** The validators of a feed's last successful answer and the items parsed from it. */
  private record Remembered(String etag, String lastModified, List<Item> items) {}

  private final SafeHttp http;
  private final Map<String, Remembered> remembered;

  public FeedCollector(SafeHttp http) {
    this(http, DEFAULT_REMEMBERED_FEEDS);
  }

  public FeedCollector(SafeHttp http, int rememberedFeeds) {
    this.http = http;
    this.remembered =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
            return size() > rememberedFeeds;
          }
        };
  }

  /**
   * The feed's items stamped with {@code trust} (may be null), or the source error that replaces
   * them.
   */
  public CompletionStage<SourceResult> collect(String feedUrl, String trust) {
    Remembered last = recall(feedUrl);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", ACCEPT);
    if (last != null && last.etag() != null) headers.put("If-None-Match", last.etag());
    if (last != null && last.lastModified() != null)
      headers.put("If-Modified-Since", last.lastModified());
    return http.get(feedUrl, headers, MAX_FEED_BYTES)
        .thenApply(response -> answered(feedUrl, trust, last, response))
        .exceptionally(failure -> SourceResult.failed(feedUrl, failure));
  }

  private SourceResult answered(
      String feedUrl, String trust, Remembered last, SafeHttp.Response response) {
    if (response.status() == 304) {
      if (last == null) { // we sent no validator: a 304 now is the server's mistake
        return SourceResult.failed(
            new SourceError(feedUrl, "http", "unexpected 304 without a cached copy", 304));
      }
      return SourceResult.ok(withTrust(last.items(), trust));
    }
    List<Item> items;
    try {
      items = parse(feedUrl, response);
    } catch (NotAFeed e) {
      return SourceResult.failed(new SourceError(feedUrl, "not-a-feed", e.getMessage(), null));
    }
    String etag = sendable(response.header("ETag"));
    String lastModified = sendable(response.header("Last-Modified"));
    if (etag != null || lastModified != null) {
      remember(feedUrl, new Remembered(etag, lastModified, items));
    } else {
      forget(feedUrl);
    }
    return SourceResult.ok(withTrust(items, trust));
  }

  private static final class NotAFeed extends Exception {
    NotAFeed(String message) {
      super(message, null, false, false);
    }
  }

  private static List<Item> parse(String feedUrl, SafeHttp.Response response) throws NotAFeed {
    SyndFeed feed;
    // Raw bytes: Rome detects the encoding (BOM, XML prolog, HTTP charset). DOCTYPEs stay refused
    // (Rome's default), which keeps external entities out.
    try (InputStream bytes = new ByteArrayInputStream(response.body());
        XmlReader reader = new XmlReader(bytes, response.header("Content-Type"), true)) {
      feed = new SyndFeedInput().build(reader);
    } catch (
        IllegalArgumentException
            e) { // Rome's answer to a well-formed document of no feed type (HTML)
      throw new NotAFeed("not an RSS or Atom document");
    } catch (FeedException | IOException e) {
      throw new NotAFeed("not a readable feed (" + e.getClass().getSimpleName() + ")");
    }
    HttpUrl base = HttpUrl.parse(response.finalUrl());
    List<Item> items = new ArrayList<>();
    for (SyndEntry entry : feed.getEntries()) {
      if (items.size() == MAX_ITEMS_PER_FEED) break;
      Item item = item(feedUrl, base, entry);
      if (item != null) items.add(item);
    }
    return items;
  }

  private static Item item(String feedUrl, HttpUrl base, SyndEntry entry) {
    String title = blankToNull(entry.getTitle());
    String link = blankToNull(entry.getLink());
    if (link == null) {
      link =
          entry.getLinks().stream()
              .map(SyndLink::getHref)
              .filter(h -> blankToNull(h) != null)
              .findFirst()
              .orElse(null);
    }
    String guid = blankToNull(entry.getUri());
    if (guid == null && link == null && title == null)
      return null; // nothing to know it by, nothing to cite
    String identity = guid != null ? guid : link != null ? link : titleAndLinkHash(title, link);
    return new Item(
        identity,
        title,
        absolute(base, link),
        summary(entry),
        published(entry),
        SOURCE_TYPE,
        feedUrl,
        null);
  }

  /**
   * The identity of an entry with neither guid nor link: SHA-256 (hex) of title, a newline, and
   * link.
   */
  static String titleAndLinkHash(String title, String link) {
    String text = (title == null ? "" : title) + "\n" + (link == null ? "" : link);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  private static String summary(SyndEntry entry) {
    SyndContent content = entry.getDescription();
    if (content == null && !entry.getContents().isEmpty()) content = entry.getContents().get(0);
    if (content == null || content.getValue() == null) return null;
    String text = Jsoup.parse(content.getValue()).text().trim();
    if (text.isEmpty()) return null;
    return text.length() > MAX_SUMMARY_CHARS ? text.substring(0, MAX_SUMMARY_CHARS) : text;
  }

  private static Instant published(SyndEntry entry) {
    Date date =
        entry.getPublishedDate() != null ? entry.getPublishedDate() : entry.getUpdatedDate();
    return date == null ? null : date.toInstant();
  }

  /** Relative links (Atom allows them) are resolved against the feed's final URL. */
  private static String absolute(HttpUrl base, String link) {
    if (link == null || base == null || HttpUrl.parse(link) != null) return link;
    HttpUrl resolved = base.resolve(link);
    return resolved == null ? link : resolved.toString();
  }

  private static List<Item> withTrust(List<Item> items, String trust) {
    return items.stream()
        .map(
            i ->
                new Item(
                    i.identity(),
                    i.title(),
                    i.url(),
                    i.summary(),
                    i.published(),
                    i.sourceType(),
                    i.sourceValue(),
                    trust))
        .toList();
  }

  /** A validator we can echo in a request header; a server's non-ASCII one is not remembered. */
  private static String sendable(String validator) {
    boolean ascii = validator != null && validator.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
    return ascii ? validator : null;
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.trim();
  }

  private synchronized Remembered recall(String feedUrl) {
    return remembered.get(feedUrl);
  }

  private synchronized void remember(String feedUrl, Remembered entry) {
    remembered.put(feedUrl, entry);
  }

  private synchronized void forget(String feedUrl) {
    remembered.remove(feedUrl);
  }
}
