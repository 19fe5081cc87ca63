package io.periscope.bench;

import io.periscope.source.ArticleExtractor;
import io.periscope.source.BudgetedParse;
import io.periscope.source.CollectionLimits;
import io.periscope.source.PageText;
import io.periscope.testing.ArticleHtml;
import io.periscope.testing.WholePageText;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;

/**
 * The CPU of reading a page in one JVM, from its decoded HTML on, the build of the commit before
 * ({@code --before <jar>}, loaded apart) as A against this one as B: a fresh item's excerpt (what a
 * judged run gives the model, {@link ArticleExtractor#readableText(String, String, int)}) and a
 * watched page's blocks (what a page source's change detection compares, {@link PageText#of}), for
 * {@code --pages} (10) news pages of {@code --kb} (200) KB ({@link ArticleHtml#page}) and as many
 * of 8 KB. Before measuring it checks that both read every page alike (and the excerpt as {@link
 * WholePageText} does). A measure is the thread's CPU time of {@code --reps} (3) passes, A and B
 * alternating for {@code --rounds} (20) rounds ({@link AlternatingCpu}). A benchmark harness, not a
 * test (the name keeps surefire away from it).
 *
 * <pre>
 * mvn -o -q -DskipTests package test-compile
 * java -cp target/periscope.jar:target/test-classes io.periscope.bench.PageBench \
 *   --before /tmp/periscope-before.jar
 * </pre>
 */
public final class PageBench {
  private static final String PAGE_URL = "https://news.example/a/1";
  private static final int MAX_ELEMENTS = CollectionLimits.DEFAULTS.parseMaxElements();

  private PageBench() {}

  /** One path's reading of a page, as text to compare. */
  private interface Reading {
    String of(String html) throws Exception;
  }

  public static void main(String[] argv) throws Exception {
    int pages = Integer.parseInt(AlternatingCpu.option(argv, "--pages", "10"));
    int kb = Integer.parseInt(AlternatingCpu.option(argv, "--kb", "200"));
    int reps = Integer.parseInt(AlternatingCpu.option(argv, "--reps", "3"));
    int rounds = Integer.parseInt(AlternatingCpu.option(argv, "--rounds", "20"));
    String before =
        Objects.requireNonNull(AlternatingCpu.option(argv, "--before", null), "--before");
    Random random = new Random(40);
    List<String> large = new ArrayList<>();
    List<String> small = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      large.add(ArticleHtml.page(random, kb * 1024));
      small.add(ArticleHtml.page(random, 8 * 1024));
    }
    try (URLClassLoader old =
        new URLClassLoader(
            new URL[] {Path.of(before).toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Method oldParse =
          old.loadClass(BudgetedParse.class.getName())
              .getMethod("html", String.class, String.class, int.class);
      Method oldDocument = oldParse.getReturnType().getMethod("document");
      Class<?> document = oldDocument.getReturnType();
      Method oldExcerpt =
          old.loadClass(ArticleExtractor.class.getName())
              .getDeclaredMethod("readableText", document);
      oldExcerpt.setAccessible(true);
      Method oldBlocks =
          old.loadClass(PageText.class.getName())
              .getMethod("of", document, String.class, List.class);
      Reading excerptBefore =
          html ->
              String.valueOf(oldExcerpt.invoke(null, parsedBefore(oldParse, oldDocument, html)));
      Reading excerptNow =
          html -> String.valueOf(ArticleExtractor.readableText(html, PAGE_URL, MAX_ELEMENTS));
      Reading blocksBefore =
          html ->
              String.valueOf(
                  oldBlocks.invoke(
                      null, parsedBefore(oldParse, oldDocument, html), null, List.of()));
      Reading blocksNow =
          html ->
              String.valueOf(
                  PageText.of(
                      BudgetedParse.html(html, PAGE_URL, MAX_ELEMENTS).document(),
                      null,
                      List.of()));
      AlternatingCpu cpu = new AlternatingCpu(reps, rounds);
      System.out.printf(
          Locale.ROOT,
          "%d pages of each size; %d passes a measure; %d rounds after %d of warm-up;"
              + " load average %.1f%n",
          pages,
          reps,
          rounds,
          rounds,
          AlternatingCpu.load());
      for (List<String> set : List.of(large, small)) {
        String size = (set == large ? kb : 8) + " KB news page";
        for (String html : set) {
          String excerpt = excerptNow.of(html);
          if (!excerpt.equals(excerptBefore.of(html))
              || !excerpt.equals(
                  String.valueOf(
                      WholePageText.of(
                          html, PAGE_URL, MAX_ELEMENTS, ArticleExtractor.MAX_TEXT_CHARS))))
            throw new AssertionError("the excerpts differ");
          if (!blocksNow.of(html).equals(blocksBefore.of(html)))
            throw new AssertionError("the blocks differ");
        }
        compare(cpu, size + ", its excerpt", set, excerptBefore, excerptNow);
        compare(cpu, size + ", its blocks", set, blocksBefore, blocksNow);
      }
      System.out.printf(Locale.ROOT, "load average after: %.1f%n", AlternatingCpu.load());
    }
  }

  private static Object parsedBefore(Method parse, Method document, String html) throws Exception {
    return document.invoke(parse.invoke(null, html, PAGE_URL, MAX_ELEMENTS));
  }

  private static void compare(
      AlternatingCpu cpu, String name, List<String> pages, Reading before, Reading now)
      throws Exception {
    cpu.compare(
        name,
        () -> {
          for (String html : pages) before.of(html);
        },
        () -> {
          for (String html : pages) now.of(html);
        },
        pages.size());
  }
}
