package io.periscope.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * One loopback server playing every upstream of a run through the whole service: an RSS feed with
 * one item about Acme's launch ({@code /feed.xml}), its article page, an OpenAI-compatible model
 * ({@code /v1}) that judges the condition met citing that article, and a webhook receiver ({@code
 * /hook}). It counts model calls and alerts. Its URLs use the host name {@code localhost}, so trust
 * rules can name their domain.
 */
public final class FakeLaunchUpstream implements AutoCloseable {
  public static final String SUMMARY = "Acme set a launch date.";

  public final AtomicInteger modelCalls = new AtomicInteger();
  public final AtomicInteger alerts = new AtomicInteger();
  private final MockWebServer server = new MockWebServer();

  public FakeLaunchUpstream() throws IOException {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            if (path.equals("/feed.xml")) {
              return new MockResponse()
                  .setHeader("Content-Type", "application/rss+xml")
                  .setBody(feed());
            }
            if (path.startsWith("/articles/")) {
              return new MockResponse()
                  .setHeader("Content-Type", "text/html")
                  .setBody(
                      "<html><body><article><p>Acme will launch on 1"
                          + " March.</p></article></body></html>");
            }
            if (path.equals("/v1/chat/completions")) {
              modelCalls.incrementAndGet();
              String verdict =
                  Json.text(
                      Map.of(
                          "reasoning",
                          "the article gives the date",
                          "met",
                          true,
                          "confidence",
                          0.9,
                          "summary",
                          SUMMARY,
                          "evidence",
                          List.of(Map.of("url", url("/articles/launch"), "quote", "1 March"))));
              return FakeJudge.answer(verdict, 0, 0, 0);
            }
            if (path.equals("/hook")) {
              alerts.incrementAndGet();
              return new MockResponse().setResponseCode(204);
            }
            return new MockResponse().setResponseCode(404);
          }
        });
    server.start();
  }

  public String url(String path) {
    return "http://localhost:" + server.getPort() + path;
  }

  /**
   * {@code journal} with this server as the model (and a key for it), private addresses allowed.
   */
  public Config config(Config journal) {
    return ConfigFactory.parseMap(
            Map.of(
                "periscope.model.base-url",
                url("/v1"),
                "periscope.model.api-keys",
                "sk-launch-upstream-test-0001",
                "periscope.fetch.allow-private-networks",
                true))
        .withFallback(journal)
        .resolve();
  }

  /**
   * The item is news: published as the fake started, after any watch of the test takes its
   * baseline's window.
   */
  private static final String PUBLISHED =
      java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
          java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC));

  private String feed() {
    return "<?xml version=\"1.0\"?><rss"
        + " version=\"2.0\"><channel><title>Acme</title><link>https://example.org</link><d"
        + "escription>d</description><item><title>Launch"
        + " date set</title><link>"
        + url("/articles/launch")
        + "</link><guid>acme-launch-1</guid><pubDate>"
        + PUBLISHED
        + "</pubDate><description>Acme sets a"
        + " date</description></item></channel></rss>";
  }

  @Override
  public void close() throws IOException {
    server.shutdown();
  }
}
