package io.periscope.bench;

import io.periscope.source.FeedReader;
import io.periscope.source.ItemBounds;
import io.periscope.source.ItemText;
import io.periscope.testing.ArticleHtml;
import io.periscope.testing.WholeHtmlText;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The CPU of items' texts in one JVM, old path (A) against new (B): for {@code --items} (20) items
 * of {@code --kb} (30) KB of article HTML, and for as many plain-text descriptions of 500
 * characters, {@link WholeHtmlText} (the whole parse, then the cut to the summary's bound) against
 * {@link ItemText#ofHtml(String, int)}; and, given {@code --before <jar>} (a build of the commit
 * before), the read of the whole feed (RSS 2.0, the HTML in {@code content:encoded}) by that jar's
 * {@code FeedReader}, loaded apart, against this one's. A measure is the thread's CPU time of
 * {@code --reps} (5) passes; A and B alternate (A, B, then B, A) for {@code --rounds} (30) rounds
 * after as many of warm-up, and the ratio reported is the median of the rounds' A / B. A benchmark
 * harness, not a test (the name keeps surefire away from it).
 *
 * <pre>
 * mvn -o -q -DskipTests package test-compile
 * java -cp target/periscope.jar:target/test-classes io.periscope.bench.ItemTextBench \
 *   --before /tmp/periscope-before.jar
 * </pre>
 */
public final class ItemTextBench {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final String FEED_URL = "https://feeds.example/";

  private ItemTextBench() {}

  /** One pass of a path over the inputs. */
  private interface Pass {
    void run() throws Exception;
  }

  public static void main(String[] argv) throws Exception {
    int items = Integer.parseInt(option(argv, "--items", "20"));
    int kb = Integer.parseInt(option(argv, "--kb", "30"));
    int reps = Integer.parseInt(option(argv, "--reps", "5"));
    int rounds = Integer.parseInt(option(argv, "--rounds", "30"));
    String before = option(argv, "--before", null);
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
    System.out.printf(
        Locale.ROOT,
        "%d items; %d passes a measure; %d rounds after %d of warm-up; load average %.1f%n",
        items,
        reps,
        rounds,
        rounds,
        load());
    compareTexts(kb + " KB of article HTML an item", articles, reps, rounds);
    compareTexts("500 characters of plain text an item", plain, reps, rounds);
    if (before != null) {
      byte[] feed = rss(articles);
      try (URLClassLoader old =
          new URLClassLoader(
              new URL[] {Path.of(before).toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
        Method read =
            old.loadClass(FeedReader.class.getName())
                .getMethod("read", byte[].class, String.class, String.class, int.class, int.class);
        compare(
            "the feed read whole (" + feed.length / 1024 + " KB)",
            () -> read.invoke(null, feed, "application/rss+xml", FEED_URL, 200, 50_000),
            () -> FeedReader.read(feed, "application/rss+xml", FEED_URL, 200, 50_000),
            1,
            reps,
            rounds);
      }
    }
    System.out.printf(Locale.ROOT, "load average after: %.1f%n", load());
  }

  /** {@link WholeHtmlText} against {@link ItemText}, to the summary's bound. */
  private static void compareTexts(String name, List<String> texts, int reps, int rounds)
      throws Exception {
    int max = ItemBounds.MAX_SUMMARY_CHARS;
    compare(
        name,
        () -> {
          for (String text : texts) WholeHtmlText.of(text, max);
        },
        () -> {
          for (String text : texts) ItemText.ofHtml(text, max);
        },
        texts.size(),
        reps,
        rounds);
  }

  private static void compare(String name, Pass a, Pass b, int items, int reps, int rounds)
      throws Exception {
    long[] as = new long[rounds];
    long[] bs = new long[rounds];
    double[] ratios = new double[rounds];
    for (int r = -rounds; r < rounds; r++) {
      boolean aFirst = (r & 1) == 0;
      long first = cpu(aFirst ? a : b, reps);
      long second = cpu(aFirst ? b : a, reps);
      if (r < 0) continue; // warm-up
      as[r] = aFirst ? first : second;
      bs[r] = aFirst ? second : first;
      ratios[r] = (double) as[r] / bs[r];
    }
    Arrays.sort(ratios);
    System.out.printf(
        Locale.ROOT,
        "%s: old %.3f ms, new %.3f ms each (medians); old / new %.1f (rounds: %.1f to %.1f)%n",
        name,
        median(as) / 1e6 / reps / items,
        median(bs) / 1e6 / reps / items,
        ratios[rounds / 2],
        ratios[0],
        ratios[rounds - 1]);
  }

  private static long cpu(Pass pass, int reps) throws Exception {
    long start = THREADS.getCurrentThreadCpuTime();
    for (int p = 0; p < reps; p++) pass.run();
    return THREADS.getCurrentThreadCpuTime() - start;
  }

  private static byte[] rss(List<String> contents) {
    StringBuilder xml =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\""
                + " xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel>"
                + "<title>Bench</title><link>"
                + FEED_URL
                + "</link>\n");
    for (int i = 0; i < contents.size(); i++) {
      String link = FEED_URL + "a/" + i;
      xml.append("<item><title>Article ")
          .append(i)
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

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static String option(String[] argv, String name, String otherwise) {
    for (int i = 0; i + 1 < argv.length; i++) if (argv[i].equals(name)) return argv[i + 1];
    return otherwise;
  }
}
