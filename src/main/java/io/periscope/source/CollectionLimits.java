package io.periscope.source;

import com.typesafe.config.Config;

/**
 * What one node's collection may hold in memory at once (a run uses bounded memory): the bytes a
 * feed or page may send, the elements a parse may build, how many fetches may hold a body and how
 * many parses may run at once, and the bytes of the remembered feeds. Read from the {@code
 * periscope.collection} block (docs/configuration.md).
 */
public record CollectionLimits(
    long feedMaxBytes,
    long pageMaxBytes,
    int parseMaxElements,
    int fetchesPerNode,
    int parsesPerNode,
    long feedCacheBytes) {

  public static final CollectionLimits DEFAULTS =
      new CollectionLimits(5L << 20, 2L << 20, 50_000, 16, 2, 32L << 20);

  public CollectionLimits {
    atLeast("FEED_MAX_BYTES", feedMaxBytes, 1024);
    atLeast("PAGE_MAX_BYTES", pageMaxBytes, 1024);
    atLeast("PARSE_MAX_ELEMENTS", parseMaxElements, 100);
    atLeast("FETCHES_PER_NODE", fetchesPerNode, 1);
    atLeast("PARSES_PER_NODE", parsesPerNode, 1);
    atLeast("FEED_CACHE_BYTES", feedCacheBytes, 0);
    // A parse's text is the body decoded: its characters are bounded by the body's bytes, so
    // one parse holds at most about (bytes + chars) plus the element budget's nodes.
    if (feedMaxBytes > Integer.MAX_VALUE || pageMaxBytes > Integer.MAX_VALUE)
      throw new IllegalArgumentException("FEED_MAX_BYTES and PAGE_MAX_BYTES must be below 2 GiB");
  }

  public static CollectionLimits from(Config config) {
    Config c = config.getConfig("periscope.collection");
    return new CollectionLimits(
        c.getBytes("feed-max-bytes"),
        c.getBytes("page-max-bytes"),
        c.getInt("parse-max-elements"),
        c.getInt("fetches-per-node"),
        c.getInt("parses-per-node"),
        c.getBytes("feed-cache-bytes"));
  }

  private static void atLeast(String name, long value, long least) {
    if (value < least) throw new IllegalArgumentException(name + " must be at least " + least);
  }
}
