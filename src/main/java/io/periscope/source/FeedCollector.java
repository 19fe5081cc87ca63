package io.periscope.source;

import io.periscope.crypto.Sha256;
import io.periscope.net.SafeHttp;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * Collects an RSS, Atom or JSON feed through {@link SafeHttp} and {@link FeedReader}, within the
 * node's {@link CollectionBudget}. Feeds that send an ETag or Last-Modified are fetched
 * conditionally; a 304 answers with the items of the last successful parse, so the run still sees
 * them (which of them are fresh is the watch's business, not the collector's). A feed answered in
 * full with the same bytes as last time (most servers send no validator, and most polls find the
 * feed unchanged) is not parsed again either: its body's digest is remembered with its items. A
 * feed that changed is parsed, but only its entries it did not read last time are mapped ({@link
 * EntryMemo}, remembered with the items). What is remembered is bounded by bytes ({@code
 * FEED_CACHE_BYTES}), least recently used forgotten first.
 */
public final class FeedCollector {
  public static final String SOURCE_TYPE = "rss";

  /** Feeds list newest first: entries past this many are dropped (and never cached). */
  public static final int MAX_ITEMS_PER_FEED = 200;

  private static final String ACCEPT =
      "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9,"
          + " text/xml;q=0.9, application/json;q=0.8, */*;q=0.5";

  /**
   * The validators of a feed's last successful answer, the digest of what was read ({@link
   * #digest}), the items read from it, what its next read reuses of its entries ({@link EntryMemo})
   * and of what was made of them, and their size.
   */
  private record Remembered(
      String etag,
      String lastModified,
      byte[] digest,
      List<Item> items,
      List<String> recoveries,
      EntryMemo memo,
      Map<FeedReader.Entry, Made> made,
      long bytes) {}

  /**
   * What was made of an entry: its link and title as an identity, its name and its item. The next
   * read of the feed gives back the entries it knew as the same objects ({@link EntryMemo}), so an
   * entry is neither normalized and hashed again nor, named as before, made into an item again.
   */
  private record Made(String linkAndTitle, ItemIdentity.Named name, Item item) {}

  private final SafeHttp http;
  private final CollectionBudget budget;

  /** Least recently used first; guarded by {@code this}. */
  private final LinkedHashMap<String, Remembered> remembered = new LinkedHashMap<>(16, 0.75f, true);

  private long rememberedBytes;

  /** Feed bodies read by {@link FeedReader} (tests and the benchmark). */
  private final AtomicLong parses = new AtomicLong();

  /** A collector with a budget of its own (tests); a node shares one with its page extractor. */
  public FeedCollector(SafeHttp http) {
    this(http, new CollectionBudget(CollectionLimits.DEFAULTS));
  }

  public FeedCollector(SafeHttp http, CollectionBudget budget) {
    this.http = http;
    this.budget = budget;
  }

  /**
   * The feed's items stamped with {@code trust} (may be null), or the source error that replaces
   * them. A URL that answers an HTML page naming feeds ({@link FeedDiscovery}) has the first of
   * them collected in its place, and the result says which ({@link SourceResult#feedFound()}); the
   * items are the source's all the same.
   */
  public CompletionStage<SourceResult> collect(String feedUrl, String trust) {
    return collect(feedUrl, feedUrl, trust);
  }

  /** Collects {@code url} for the source {@code source}; only the source's own URL is followed. */
  private CompletionStage<SourceResult> collect(String source, String url, String trust) {
    boolean found = !source.equals(url);
    String key = found ? source + "\n" + url : url; // one source's items, not another's
    Remembered last = recall(key);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", ACCEPT);
    if (last != null && last.etag() != null) headers.put("If-None-Match", last.etag());
    if (last != null && last.lastModified() != null)
      headers.put("If-Modified-Since", last.lastModified());
    long maxBytes = budget.limits().feedMaxBytes();
    return budget
        .fetchAndParse(
            () -> http.get(url, headers, maxBytes),
            response -> answered(source, key, trust, last, response, !found))
        // The page's feed is fetched after the page's permit is given back.
        .thenCompose(
            answer ->
                answer.follow() == null
                    ? CompletableFuture.completedFuture(answer.result())
                    : collect(source, answer.follow(), trust)
                        .thenApply(result -> followed(source, answer.follow(), result)))
        .exceptionally(failure -> SourceResult.failed(source, failure));
  }

  /** A parsed answer: the result, or the feed a page names that stands for it. */
  private record Answer(SourceResult result, String follow) {}

  /** The result of a feed a page named: it says so, and an error names that feed. */
  private static SourceResult followed(String source, String feed, SourceResult result) {
    if (result.succeeded()) return result.withFeedFound(feed);
    SourceError e = result.error();
    return SourceResult.failed(
            new SourceError(
                source,
                e.kind(),
                "the feed the page names (" + feed + "): " + e.message(),
                e.httpStatus()))
        .withFeedFound(feed);
  }

  private Answer answered(
      String source,
      String key,
      String trust,
      Remembered last,
      SafeHttp.Response response,
      boolean mayFollow) {
    if (response.status() == 304) {
      if (last == null) { // we sent no validator: a 304 now is the server's mistake
        return new Answer(
            SourceResult.failed(
                new SourceError(source, "http", "unexpected 304 without a cached copy", 304)),
            null);
      }
      return new Answer(SourceResult.ok(withTrust(last.items(), trust), last.recoveries()), null);
    }
    byte[] digest = digest(response);
    if (last != null && Arrays.equals(last.digest(), digest)) {
      // the same bytes read the same: the last parse's items, under this answer's validators
      remember(key, withValidators(last, response));
      return new Answer(SourceResult.ok(withTrust(last.items(), trust), last.recoveries()), null);
    }
    parses.incrementAndGet();
    FeedReader.Reading reading;
    try {
      reading =
          FeedReader.read(
              response.body(),
              response.header("Content-Type"),
              response.finalUrl(),
              MAX_ITEMS_PER_FEED,
              budget.limits().parseMaxElements(),
              last == null ? EntryMemo.NONE : last.memo());
    } catch (FeedReader.NotAFeed e) {
      List<FeedDiscovery.Found> named =
          mayFollow
              ? FeedDiscovery.in(
                  response.body(),
                  response.header("Content-Type"),
                  response.finalUrl(),
                  budget.limits().parseMaxElements())
              : List.of();
      if (!named.isEmpty()) return new Answer(null, named.get(0).url());
      return new Answer(
          SourceResult.failed(new SourceError(source, "not-a-feed", e.getMessage(), null)), null);
    }
    FeedReader.Read read = reading.read();
    Map<FeedReader.Entry, Made> before = last == null ? Map.of() : last.made();
    Map<FeedReader.Entry, String> linksAndTitles = new IdentityHashMap<>();
    for (FeedReader.Entry e : read.entries()) {
      Made was = before.get(e);
      if (was != null) linksAndTitles.put(e, was.linkAndTitle());
    }
    List<ItemIdentity.Named> names = ItemIdentity.ofFeed(read.entries(), linksAndTitles);
    List<Item> items = new ArrayList<>();
    Map<FeedReader.Entry, Made> made = new IdentityHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      ItemIdentity.Named name = names.get(i);
      if (name == null) continue;
      FeedReader.Entry entry = read.entries().get(i);
      Made was = before.get(entry);
      Item item =
          was != null && was.name().equals(name)
              ? was.item()
              : ItemBounds.bounded(item(source, entry, name));
      items.add(item);
      made.put(entry, new Made(linksAndTitles.get(entry), name, item));
    }
    remember(
        key,
        withValidators(
            new Remembered(
                null,
                null,
                digest,
                List.copyOf(items),
                read.recoveries(),
                reading.memo(),
                made,
                sizeOf(items, reading.memo())),
            response));
    return new Answer(SourceResult.ok(withTrust(items, trust), read.recoveries()), null);
  }

  /** {@code remembered} with the validators {@code response} sends, if any. */
  private static Remembered withValidators(Remembered remembered, SafeHttp.Response response) {
    return new Remembered(
        sendable(response.header("ETag")),
        sendable(response.header("Last-Modified")),
        remembered.digest(),
        remembered.items(),
        remembered.recoveries(),
        remembered.memo(),
        remembered.made(),
        remembered.bytes());
  }

  /**
   * SHA-256 of what a feed's reading depends on: its body, its content type (which may name the
   * charset) and its final URL (which relative links resolve against). Equal digests read alike.
   */
  static byte[] digest(SafeHttp.Response response) {
    MessageDigest sha = Sha256.digest();
    for (String part : new String[] {response.header("Content-Type"), response.finalUrl()}) {
      sha.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
    }
    return sha.digest(response.body());
  }

  private static Item item(String feedUrl, FeedReader.Entry entry, ItemIdentity.Named name) {
    return new Item(
        name.identity(),
        entry.title(),
        NormalizedUrls.forDisplay(entry.link()),
        entry.summary(),
        entry.published(),
        SOURCE_TYPE,
        feedUrl,
        null,
        name.aliases());
  }

  /**
   * Roughly what {@code items} and {@code memo} hold on the heap, with what made each item (its
   * {@link Made}): two bytes a character plus the objects, a string they share counted once.
   */
  static long sizeOf(List<Item> items, EntryMemo memo) {
    Set<String> counted = Collections.newSetFromMap(new IdentityHashMap<>());
    ToLongFunction<String> size = s -> s == null || !counted.add(s) ? 0 : 40 + 2L * s.length();
    long bytes = 64;
    for (Item i : items) {
      bytes += 220;
      for (String s : new String[] {i.identity(), i.title(), i.url(), i.summary(), i.sourceValue()})
        bytes += size.applyAsLong(s);
      for (String alias : i.aliases()) bytes += size.applyAsLong(alias);
    }
    return bytes + memo.bytes(size);
  }

  private static List<Item> withTrust(List<Item> items, String trust) {
    return items.stream().map(i -> i.withTrust(trust)).toList();
  }

  /**
   * A validator (ETag, Last-Modified) we can echo in a request header; a server's non-ASCII one is
   * not remembered. Page sources keep theirs by the same rule.
   */
  static String sendable(String validator) {
    boolean ascii = validator != null && validator.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
    return ascii ? validator : null;
  }

  private synchronized Remembered recall(String feedUrl) {
    return remembered.get(feedUrl);
  }

  /** Keeps {@code entry}, then forgets the least recently used feeds past the byte bound. */
  private synchronized void remember(String feedUrl, Remembered entry) {
    forget(feedUrl);
    if (entry.bytes() > budget.limits().feedCacheBytes()) return; // would push out everything
    remembered.put(feedUrl, entry);
    rememberedBytes += entry.bytes();
    Iterator<Remembered> eldest = remembered.values().iterator();
    while (rememberedBytes > budget.limits().feedCacheBytes() && eldest.hasNext()) {
      rememberedBytes -= eldest.next().bytes();
      eldest.remove();
    }
  }

  private synchronized void forget(String feedUrl) {
    Remembered gone = remembered.remove(feedUrl);
    if (gone != null) rememberedBytes -= gone.bytes();
  }

  /** Bytes held by the remembered feeds (tests and the benchmark). */
  synchronized long rememberedBytes() {
    return rememberedBytes;
  }

  /** Feed bodies parsed so far: an unchanged one, answered 304 or in full, is not. */
  public long parses() {
    return parses.get();
  }
}
