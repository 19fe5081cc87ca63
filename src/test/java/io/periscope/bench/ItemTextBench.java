package io.periscope.bench;

import io.periscope.source.EntryMemo;
import io.periscope.source.FeedReader;
import io.periscope.source.ItemBounds;
import io.periscope.source.ItemText;
import io.periscope.testing.ArticleHtml;
import io.periscope.testing.WholeHtmlText;
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
 * The CPU of items' texts in one JVM, old path (A) against new (B): for {@code --items} (20) items
 * of {@code --kb} (30) KB of article HTML, and for as many plain-text descriptions of 500
 * characters, {@link WholeHtmlText} (the whole parse, then the cut to the summary's bound) against
 * {@link ItemText#ofHtml(String, int)}; and, given {@code --before <jar>} (a build of the commit
 * before), the read of the whole feed (RSS 2.0, the HTML in {@code content:encoded}) by that jar's
 * {@code FeedReader}, loaded apart, against this one's; and that jar's whole read against this
 * one's given the memo of the feed before its newest item ({@link EntryMemo}), as a feed that
 * gained an item is read. A measure is the thread's CPU time of {@code --reps} (5) passes, A and B
 * alternating for {@code --rounds} (30) rounds ({@link AlternatingCpu}). A benchmark harness, not a
 * test (the name keeps surefire away from it).
 *
 * <pre>
 * mvn -o -q -DskipTests package test-compile
 * java -cp target/periscope.jar:target/test-classes io.periscope.bench.ItemTextBench \
 *   --before /tmp/periscope-before.jar
 * </pre>
 */
public final class ItemTextBench {
  private static final String FEED_URL = "https://feeds.example/";

  private ItemTextBench() {}

  public static void main(String[] argv) throws Exception {
    int items = Integer.parseInt(AlternatingCpu.option(argv, "--items", "20"));
    int kb = Integer.parseInt(AlternatingCpu.option(argv, "--kb", "30"));
    int reps = Integer.parseInt(AlternatingCpu.option(argv, "--reps", "5"));
    int rounds = Integer.parseInt(AlternatingCpu.option(argv, "--rounds", "30"));
    String before = AlternatingCpu.option(argv, "--before", null);
    Random random = new Random(40);
    List<String> articles = new ArrayList<>();
    List<String> plain = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      articles.add(ArticleHtml.article(random, kb * 1024));
      plain.add(ItemText.ofHtml(ArticleHtml.article(random, 2_000), 500));
    }
    int max = ItemBounds.MAX_SUMMARY_CHARS;
    for (String html : articles) {
      if (!WholeHtmlText.of(html, max).equals(ItemText.ofHtml(html, max)))
        throw new AssertionError("the texts differ");
    }
    AlternatingCpu cpu = new AlternatingCpu(reps, rounds);
    System.out.printf(
        Locale.ROOT,
        "%d items; %d passes a measure; %d rounds after %d of warm-up; load average %.1f%n",
        items,
        reps,
        rounds,
        rounds,
        AlternatingCpu.load());
    compareTexts(cpu, kb + " KB of article HTML an item", articles);
    compareTexts(cpu, "500 characters of plain text an item", plain);
    if (before != null) {
      byte[] feed = rss(articles, 0);
      // the feed before its newest item: what the read of the feed that gained it remembers
      EntryMemo memo =
          FeedReader.read(
                  rss(articles.subList(1, items), 1),
                  "application/rss+xml",
                  FEED_URL,
                  200,
                  50_000,
                  EntryMemo.NONE)
              .memo();
      if (!FeedReader.read(feed, "application/rss+xml", FEED_URL, 200, 50_000)
          .equals(FeedReader.read(feed, "application/rss+xml", FEED_URL, 200, 50_000, memo).read()))
        throw new AssertionError("the reads differ");
      try (URLClassLoader old =
          new URLClassLoader(
              new URL[] {Path.of(before).toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
        Method read =
            old.loadClass(FeedReader.class.getName())
                .getMethod("read", byte[].class, String.class, String.class, int.class, int.class);
        cpu.compare(
            "the feed read whole (" + feed.length / 1024 + " KB)",
            () -> read.invoke(null, feed, "application/rss+xml", FEED_URL, 200, 50_000),
            () -> FeedReader.read(feed, "application/rss+xml", FEED_URL, 200, 50_000),
            1);
        cpu.compare(
            "the feed that gained its first item, read whole before and now given the last"
                + " read's memo",
            () -> read.invoke(null, feed, "application/rss+xml", FEED_URL, 200, 50_000),
            () -> FeedReader.read(feed, "application/rss+xml", FEED_URL, 200, 50_000, memo),
            1);
      }
    }
    System.out.printf(Locale.ROOT, "load average after: %.1f%n", AlternatingCpu.load());
  }

  /** {@link WholeHtmlText} against {@link ItemText}, to the summary's bound. */
  private static void compareTexts(AlternatingCpu cpu, String name, List<String> texts)
      throws Exception {
    int max = ItemBounds.MAX_SUMMARY_CHARS;
    cpu.compare(
        name,
        () -> {
          for (String text : texts) WholeHtmlText.of(text, max);
        },
        () -> {
          for (String text : texts) ItemText.ofHtml(text, max);
        },
        texts.size());
  }

  /** The feed of {@code contents}, the first numbered {@code first}. */
  private static byte[] rss(List<String> contents, int first) {
    StringBuilder xml =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\""
                + " xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel>"
                + "<title>Bench</title><link>"
                + FEED_URL
                + "</link>\n");
    for (int i = 0; i < contents.size(); i++) {
      String link = FEED_URL + "a/" + (first + i);
      xml.append("<item><title>Article ")
          .append(first + i)
          .append("</title><link>")
          .append(link)
          .append("</link><guid>")
          .append(link)
          .append("</guid><pubDate>Sat, 28 Nov 2026 06:00:00 GMT</pubDate>")
          .append("<content:encoded><![CDATA[")
          .append(contents.get(i))
          .append("]]></content:encoded></item>\n");
    }
    return xml.append("</channel></rss>\n").toString().getBytes(StandardCharsets.UTF_8);
  }
}
