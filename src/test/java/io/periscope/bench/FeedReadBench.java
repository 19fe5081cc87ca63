package io.periscope.bench;

import io.periscope.source.EntryMemo;
import io.periscope.source.FeedReader;
import io.periscope.testing.ArticleHtml;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The CPU of reading a feed that gained one item, in one JVM: the {@code --before <jar>} build's
 * {@code FeedReader} (loaded apart) reads the changed feed whole (A), this one reads it given the
 * memo of its last read (B), so only the new entry is mapped. Then both read the feed whole, for
 * what the memo's digests cost a read that reuses nothing. The feed: RSS 2.0, {@code --items} (20)
 * items, its newest served, each with {@code --kb} (1) KB of HTML in its description, a category
 * and an author. Measures alternate as {@link AlternatingCpu} says. A benchmark harness, not a
 * test.
 *
 * <pre>
 * mvn -o -q -DskipTests package test-compile
 * java -cp target/periscope.jar:target/test-classes io.periscope.bench.FeedReadBench \
 *   --before /tmp/before/target/periscope.jar
 * </pre>
 */
public final class FeedReadBench {
  private static final String FEED_URL = "https://feeds.example/";

  private FeedReadBench() {}

  public static void main(String[] argv) throws Exception {
    int items = Integer.parseInt(AlternatingCpu.option(argv, "--items", "20"));
    int kb = Integer.parseInt(AlternatingCpu.option(argv, "--kb", "1"));
    int reps = Integer.parseInt(AlternatingCpu.option(argv, "--reps", "20"));
    int rounds = Integer.parseInt(AlternatingCpu.option(argv, "--rounds", "30"));
    String before = AlternatingCpu.option(argv, "--before", null);
    if (before == null) throw new IllegalArgumentException("--before <jar> is needed");
    Random random = new Random(40);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i <= items; i++) texts.add(ArticleHtml.article(random, kb * 1024));
    byte[] last = rss(texts, items - 1);
    byte[] gained = rss(texts, items);
    EntryMemo memo =
        FeedReader.read(last, "application/rss+xml", FEED_URL, 200, 50_000, EntryMemo.NONE).memo();
    if (!FeedReader.read(gained, "application/rss+xml", FEED_URL, 200, 50_000)
        .equals(FeedReader.read(gained, "application/rss+xml", FEED_URL, 200, 50_000, memo).read()))
      throw new AssertionError("the reads differ");
    AlternatingCpu cpu = new AlternatingCpu(reps, rounds);
    System.out.printf(
        Locale.ROOT,
        "%d items of %d KB; %d passes a measure; %d rounds after %d of warm-up; load average"
            + " %.1f%n",
        items,
        kb,
        reps,
        rounds,
        rounds,
        AlternatingCpu.load());
    try (URLClassLoader old =
        new URLClassLoader(
            new URL[] {Path.of(before).toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Method read =
          old.loadClass(FeedReader.class.getName())
              .getMethod("read", byte[].class, String.class, String.class, int.class, int.class);
      cpu.compare(
          "the feed that gained an item: before, whole; now, given the last read's memo",
          () -> read.invoke(null, gained, "application/rss+xml", FEED_URL, 200, 50_000),
          () -> FeedReader.read(gained, "application/rss+xml", FEED_URL, 200, 50_000, memo),
          1);
      cpu.compare(
          "the feed read with no memo: before, now",
          () -> read.invoke(null, gained, "application/rss+xml", FEED_URL, 200, 50_000),
          () ->
              FeedReader.read(gained, "application/rss+xml", FEED_URL, 200, 50_000, EntryMemo.NONE),
          1);
    }
    System.out.printf(Locale.ROOT, "load average after: %.1f%n", AlternatingCpu.load());
  }

  /** The feed whose newest item is {@code newest}, and the {@code texts.size() - 1} before it. */
  private static byte[] rss(List<String> texts, int newest) {
    StringBuilder xml =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\""
                + " xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel>"
                + "<title>Bench</title><link>"
                + FEED_URL
                + "</link><lastBuildDate>Sat, 28 Nov 2026 06:"
                + (10 + newest)
                + ":00 GMT</lastBuildDate>\n");
    for (int i = newest; i > newest - texts.size() + 1; i--) {
      String link = FEED_URL + "a/" + i;
      xml.append("<item><title>Article ")
          .append(i)
          .append("</title><link>")
          .append(link)
          .append("</link><guid>")
          .append(link)
          .append("</guid><pubDate>Sat, 28 Nov 2026 06:00:00 GMT</pubDate>")
          .append("<dc:creator>Author</dc:creator><category>News</category><description><![CDATA[")
          .append(texts.get(i))
          .append("]]></description></item>\n");
    }
    return xml.append("</channel></rss>\n").toString().getBytes(StandardCharsets.UTF_8);
  }
}
