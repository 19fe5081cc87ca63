package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.net.SafeHttp;
import io.periscope.testing.ArticleHtml;
import io.periscope.testing.WholePageText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.Buffer;
import org.jsoup.parser.Parser;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

public class ArticleExtractorTest {
  private MockWebServer server;
  private ArticleExtractor extractor;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
    extractor = new ArticleExtractor(new SafeHttp(true));
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private Optional<String> extract(String path) throws Exception {
    return extractor
        .extract(server.url(path).toString())
        .toCompletableFuture()
        .get(15, TimeUnit.SECONDS);
  }

  private static MockResponse html(String body) {
    return new MockResponse().setBody(body).addHeader("Content-Type", "text/html; charset=utf-8");
  }

  @Test
  public void prefersTheLongestArticle() throws Exception {
    server.enqueue(
        html(
            """
            <html><body><nav>Home | About</nav>
            <article><p>Teaser</p></article>
            <article><header><h1>Big news</h1></header>
              <p>First   paragraph
                 continues.</p><script>track()</script><p>Second.</p></article>
            <footer>(c) 2024</footer></body></html>\
            """));
    assertEquals(Optional.of("Big news First paragraph continues. Second."), extract("/story"));
  }

  @Test
  public void fallsBackToMainThenToTheBodyWithoutItsChrome() throws Exception {
    server.enqueue(
        html(
            "<html><body><header>Site</header><main><h1>Title</h1><p>Body text</p></main>"
                + "<aside>Ads</aside></body></html>"));
    assertEquals(Optional.of("Title Body text"), extract("/main"));

    server.enqueue(
        html(
            "<html><head><title>T</title><style>p{}</style></head><body><header>Site</header><nav"
                + ">Menu</nav><div><p>Only"
                + " the content</p><form><input value=x>Search</form></div>"
                + "<aside>Related</aside><footer>Legal</footer></body></html>"));
    assertEquals(Optional.of("Only the content"), extract("/plain"));
  }

  @Test
  public void capsTheText() throws Exception {
    server.enqueue(html("<article><p>" + "word ".repeat(10_000) + "</p></article>"));
    assertEquals(ArticleExtractor.MAX_TEXT_CHARS, extract("/long").orElseThrow().length());
  }

  @Test
  public void aHostilePageIsReadWithinTheElementBudget() throws Exception {
    // 400,000 nested elements: the budget stops the tree at 50,000 and keeps the text before it.
    server.enqueue(
        html(
            "<html><body><article><p>The story comes first.</p>"
                + "<div>".repeat(400_000)
                + "x</article></body></html>"));
    assertEquals(Optional.of("The story comes first."), extract("/nested"));
    server.enqueue(
        html("<html><body><article><p>Lead.</p>" + "<b>y</b>".repeat(200_000) + "</article>"));
    assertTrue(extract("/wide").orElseThrow().startsWith("Lead. yyy"));
  }

  @Test
  public void theBudgetBoundsTheTreeAndSaysItCut() {
    BudgetedParse parse =
        BudgetedParse.html("<p>a</p>" + "<b>y</b>".repeat(200_000), "https://e.example/", 1_000);
    assertTrue(parse.cut());
    // What is built: the elements counted, the ones still open when it stopped, the skeleton.
    assertTrue(parse.document().getAllElements().size() <= 1_000 + BudgetedParse.MAX_DEPTH);
    BudgetedParse whole = BudgetedParse.html("<p>a</p>", "https://e.example/", 1_000);
    assertEquals(false, whole.cut());
  }

  @Test
  public void aPagePastTheByteLimitYieldsNothing() throws Exception {
    server.enqueue(
        html("<html><body><article>" + "z".repeat((int) CollectionLimits.DEFAULTS.pageMaxBytes())));
    assertEquals(Optional.empty(), extract("/huge"));
  }

  @Test
  public void readsTheCharsetThePageDeclares() throws Exception {
    String page =
        "<html><head><meta charset=\"ISO-8859-1\"></head><body><article>Caf\u00e9"
            + " cr\u00e8me</article></body></html>";
    server.enqueue(
        new MockResponse()
            .setBody(new Buffer().write(page.getBytes(StandardCharsets.ISO_8859_1)))
            .addHeader("Content-Type", "text/html"));
    assertEquals(Optional.of("Caf\u00e9 cr\u00e8me"), extract("/latin"));
  }

  @Test
  public void yieldsNothingForNonHtmlErrorsAndRefusedAddresses() throws Exception {
    server.enqueue(
        new MockResponse().setBody("%PDF-1.7").addHeader("Content-Type", "application/pdf"));
    assertEquals(Optional.empty(), extract("/paper.pdf"));
    server.enqueue(new MockResponse().setResponseCode(404));
    assertEquals(Optional.empty(), extract("/gone"));

    ArticleExtractor guarded = new ArticleExtractor(new SafeHttp(false));
    Optional<String> refused =
        guarded
            .extract(server.url("/private").toString())
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertEquals(Optional.empty(), refused);
    assertEquals(2, server.getRequestCount());
  }

  @Test
  public void extractsManyInOrderWithBoundedConcurrencyAndNeverFailsTheBatch() throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger mostInFlight = new AtomicInteger();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
              Thread.sleep(150);
              String path = request.getPath();
              return path.equals("/broken")
                  ? new MockResponse().setResponseCode(500)
                  : html("<article>page " + path + "</article>");
            } finally {
              inFlight.decrementAndGet();
            }
          }
        });
    List<Item> items = new ArrayList<>();
    for (String path : List.of("/1", "/2", "/broken", "/4", "/5", "/6")) {
      items.add(
          new Item(
              path, path, server.url(path).toString(), null, null, "rss", "feed", null, List.of()));
    }
    items.add(new Item("no-url", "t", null, null, null, "rss", "feed", null, List.of()));

    List<Optional<String>> texts =
        extractor.extractAll(items, 2).toCompletableFuture().get(30, TimeUnit.SECONDS);

    assertEquals(
        List.of(
            Optional.of("page /1"),
            Optional.of("page /2"),
            Optional.empty(),
            Optional.of("page /4"),
            Optional.of("page /5"),
            Optional.of("page /6"),
            Optional.empty()),
        texts);
    assertTrue("at most 2 fetches at once, saw " + mostInFlight.get(), mostInFlight.get() <= 2);
    assertEquals(6, server.getRequestCount());
  }

  @Test
  public void everyPageReadsAsItsWholeCopiedCandidateDid() {
    Random random = new Random(40);
    int checked = 0;
    for (int i = 0; i < 30; i++) {
      assertSameExcerpt(ArticleHtml.page(random, 2_000 + random.nextInt(150_000)));
      checked++;
    }
    // Soups with about as much text as the cap, in every candidate and around it: the cut lands
    // in tables, raw text, foreign content, pre-formatted and invisible text.
    List<String> wrappers =
        List.of(
            "<article>%s</article>",
            "<main>%s</main>",
            "%s",
            "<pre><article>%s</article></pre>",
            "<article>a</article><article>%s</article><article>%1$s</article>",
            "<template><article>%s</article></template><main>x</main>",
            "<pre>%s</pre>",
            "<article> </article><main><nav>n</nav>%s</main><footer>f</footer>",
            "<main><article><script>s</script></article>%s</main>");
    for (int i = 0; i < 60; i++) {
      String soup = ArticleHtml.soup(random, 30_000 + random.nextInt(40_000));
      assertSameExcerpt(String.format(wrappers.get(i % wrappers.size()), soup));
      checked++;
    }
    // Candidates opened and closed anywhere, well-formed or not: the parse stops once all closed.
    List<String> tags = List.of("<article>", "</article>", "<main>", "</main>", "<ARTICLE id=a>");
    for (int i = 0; i < 40; i++) {
      StringBuilder html = new StringBuilder();
      for (String part : ArticleHtml.soup(random, 40_000).replace("<frameset>", "").split("<p>"))
        html.append(part).append(tags.get(random.nextInt(tags.size())));
      assertSameExcerpt(html.toString());
      checked++;
    }
    assertEquals(130, checked);
    // An article blank to Java up to past the cap (em spaces, which jsoup keeps), then not.
    assertSameExcerpt("Site<article>" + "<i>\u2003</i>".repeat(25_000) + "X</article>");
    // A frameset after the candidates takes the body's place: there is no text at all.
    String framed =
        "<article><title>Story</title></article><span></span><frameset><frame></frameset>";
    assertSameExcerpt(framed);
    assertEquals(
        Optional.empty(), ArticleExtractor.readableText(framed, "https://e.example/", 1_000));
  }

  @Test
  public void tracklessParsesBuildTheSameTree() {
    Random random = new Random(41);
    for (int i = 0; i < 20; i++) {
      String html =
          i % 2 == 0 ? ArticleHtml.soup(random, 20_000) : ArticleHtml.page(random, 20_000);
      Parser tracked = Parser.htmlParser().setTrackErrors(1_000);
      String expected = tracked.parseInput(html, "https://e.example/").outerHtml();
      assertTrue(!tracked.getErrors().isEmpty());
      assertEquals(
          expected,
          BudgetedParse.html(html, "https://e.example/", 1_000_000).document().outerHtml());
    }
  }

  private static void assertSameExcerpt(String html) {
    int maxElements = CollectionLimits.DEFAULTS.parseMaxElements();
    assertEquals(
        WholePageText.of(html, "https://e.example/", maxElements, ArticleExtractor.MAX_TEXT_CHARS),
        ArticleExtractor.readableText(html, "https://e.example/", maxElements));
  }
}
