package io.periscope.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ServerSocketFactory;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * Every upstream a run calls, on one loopback port, for tests and benchmarks that run the jar:
 *
 * <ul>
 *   <li>{@code GET /feed/<name>}: an RSS feed that publishes one new item per request and lists the
 *       newest {@code itemsPerFeed}; item {@code n} links to {@code /page/<name>/<n>}, an article
 *       page;
 *   <li>{@code GET /static-feed/<name>}: an RSS feed that always lists the same one item, after the
 *       same latency;
 *   <li>{@code POST /v1/chat/completions}: an OpenAI-compatible model whose verdict is met (or not)
 *       with confidence 0.9 (0.1) and cites every item URL of the prompt;
 *   <li>{@code POST /hook/<name>}: a webhook receiver that keeps every alert it was sent.
 * </ul>
 *
 * Feed and model answer after a fixed latency. A test can {@link #hold} the requests that match a
 * predicate until it {@link #release}s them, to stop a run at a chosen step.
 */
public final class FakeUpstream implements AutoCloseable {
  private static final Pattern PAGE_URL =
      Pattern.compile("http://127\\.0\\.0\\.1:\\d+/page/[A-Za-z0-9._-]+/\\d+");

  /** An alert the webhook received: which watch, and the URLs of the items it cites. */
  public record Alert(String watchId, List<String> evidence) {}

  /**
   * Every item's date: news to any watch a test creates (a run sets aside items published long
   * before its watch, and undated ones already there at its first run).
   */
  private static final String PUBLISHED =
      java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
          java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC));

  /** The tokens every model answer says it took. */
  public static final int PROMPT_TOKENS = 120;

  public static final int ANSWER_TOKENS = 30;

  private final MockWebServer server = new MockWebServer();
  private final Duration feedLatency;
  private final Duration modelLatency;
  private final boolean met;
  private final int itemsPerFeed;
  private final Map<String, AtomicInteger> published = new ConcurrentHashMap<>();
  private final AtomicLong modelCalls = new AtomicLong();
  private final AtomicLong connections = new AtomicLong();
  private final List<String> modelsAsked = new CopyOnWriteArrayList<>();
  private final List<Alert> alerts = new CopyOnWriteArrayList<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private volatile Predicate<RecordedRequest> held = request -> false;
  private volatile CountDownLatch gate = new CountDownLatch(0);

  public FakeUpstream(Duration feedLatency, Duration modelLatency, boolean met, int itemsPerFeed)
      throws IOException {
    this(feedLatency, modelLatency, met, itemsPerFeed, false);
  }

  /**
   * {@code keepAlive}: connections stay open between requests, as most servers keep them, and are
   * answered without Nagle's algorithm (each accepted socket with {@code TCP_NODELAY}), so the
   * headers and the body MockWebServer writes separately leave at once instead of the body waiting
   * for the client's delayed ACK. Without it every answer closes its connection.
   */
  public FakeUpstream(
      Duration feedLatency, Duration modelLatency, boolean met, int itemsPerFeed, boolean keepAlive)
      throws IOException {
    this.feedLatency = feedLatency;
    this.modelLatency = modelLatency;
    this.met = met;
    this.itemsPerFeed = itemsPerFeed;
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            if (request.getSequenceNumber() == 0) connections.incrementAndGet();
            if (keepAlive) return answer(request);
            // A new connection per request: on a kept-alive MockWebServer connection the response's
            // separate writes meet Nagle's algorithm and a delayed ACK, about 40 ms per request
            // that no real upstream adds.
            return answer(request).setHeader("Connection", "close");
          }
        });
    if (keepAlive) server.setServerSocketFactory(new NoDelaySockets());
    server.start(); // MockWebServer binds the loopback address
  }

  /**
   * The settings of a service of the jar that reads its feeds here (on loopback) and asks its model
   * here, with the API key {@code apiKey}.
   */
  public Map<String, String> serviceEnv(String apiKey) {
    return Map.of(
        "FETCH_ALLOW_PRIVATE_NETWORKS",
        "true",
        "MODEL_BASE_URL",
        base() + "/v1",
        "MODEL_API_KEYS",
        apiKey);
  }

  public String base() {
    return "http://127.0.0.1:" + server.getPort();
  }

  public String feedUrl(String name) {
    return base() + "/feed/" + name;
  }

  public String staticFeedUrl(String name) {
    return base() + "/static-feed/" + name;
  }

  /**
   * The JSON of watch {@code id} on its own feed here, which alerts (with a met verdict) to {@code
   * channel}, never due by its schedule.
   */
  public String alertingWatch(String id, String channel) {
    return alertingWatch(id, "anything", channel);
  }

  /** The same, with its {@code condition}. */
  public String alertingWatch(String id, String condition, String channel) {
    return TestWatches.body(id).condition(condition).feed(feedUrl(id)).channel(channel).json();
  }

  public String hookUrl(String name) {
    return base() + "/hook/" + name;
  }

  /** The connections requests came on so far. */
  public long connections() {
    return connections.get();
  }

  public long modelCalls() {
    return modelCalls.get();
  }

  /** The {@code model} of every model call, in order. */
  public List<String> modelsAsked() {
    return List.copyOf(modelsAsked);
  }

  public List<Alert> alerts() {
    return List.copyOf(alerts);
  }

  /** From now on, requests matching {@code which} wait until {@link #release}. */
  public void hold(Predicate<RecordedRequest> which) {
    gate = new CountDownLatch(1);
    held = which;
  }

  /** Requests waiting at the hold now. */
  public int waiting() {
    return waiting.get();
  }

  /** Lets every held request through, and holds no more. */
  public void release() {
    held = request -> false;
    gate.countDown();
  }

  /**
   * Whether a request is a model call whose prompt contains {@code text} (the watch's condition,
   * say).
   */
  public static Predicate<RecordedRequest> modelCallAbout(String text) {
    return r ->
        r.getPath().equals("/v1/chat/completions") && r.getBody().clone().readUtf8().contains(text);
  }

  /**
   * Whether a request is a webhook alert to {@code /hook/<name>} for a name starting with {@code
   * prefix}.
   */
  public static Predicate<RecordedRequest> alertTo(String prefix) {
    return r -> r.getPath().startsWith("/hook/" + prefix);
  }

  private MockResponse answer(RecordedRequest request) {
    String path = request.getPath();
    if (held.test(request)) awaitRelease();
    if (path.startsWith("/feed/")) {
      String name = path.substring("/feed/".length());
      int newest = published.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
      pause(feedLatency);
      StringBuilder items = new StringBuilder();
      for (int n = newest; n > Math.max(0, newest - itemsPerFeed); n--) {
        items
            .append("<item><title>Item ")
            .append(n)
            .append("</title><link>")
            .append(base())
            .append("/page/")
            .append(name)
            .append('/')
            .append(n)
            .append("</link><guid>")
            .append(name)
            .append('-')
            .append(n)
            .append("</guid><pubDate>")
            .append(PUBLISHED)
            .append("</pubDate><description>Summary ")
            .append(n)
            .append("</description></item>");
      }
      return rss(items.toString());
    }
    if (path.startsWith("/static-feed/")) {
      String name = path.substring("/static-feed/".length());
      pause(feedLatency);
      return rss(
          "<item><title>Always</title><link>"
              + base()
              + "/page/"
              + name
              + "/0</link><guid>"
              + name
              + "-0</guid><pubDate>"
              + PUBLISHED
              + "</pubDate><description>The same item</description></item>");
    }
    if (path.startsWith("/page/")) {
      return new MockResponse()
          .setHeader("Content-Type", "text/html")
          .setBody("<html><body><article><p>The text of " + path + ".</p></article></body></html>");
    }
    if (path.equals("/v1/chat/completions")) {
      modelCalls.incrementAndGet();
      String body = request.getBody().clone().readUtf8();
      try {
        modelsAsked.add(Json.MAPPER.readTree(body).path("model").asText());
      } catch (IOException e) {
        return new MockResponse().setResponseCode(400);
      }
      List<Map<String, String>> evidence = new ArrayList<>();
      for (String url : pageUrls(body)) evidence.add(Map.of("url", url, "quote", "text"));
      String verdict =
          Json.text(
              Map.of(
                  "reasoning",
                  "fake",
                  "met",
                  met,
                  "confidence",
                  met ? 0.9 : 0.1,
                  "summary",
                  met ? "It happened." : "Not met.",
                  "evidence",
                  met ? evidence : List.of()));
      pause(modelLatency);
      return FakeJudge.answer(verdict, PROMPT_TOKENS, 0, ANSWER_TOKENS);
    }
    if (path.startsWith("/hook/")) {
      try {
        JsonNode alert = Json.MAPPER.readTree(request.getBody().clone().readUtf8());
        alerts.add(
            new Alert(
                alert.path("watchId").asText(), alert.path("evidence").findValuesAsText("url")));
      } catch (IOException e) {
        return new MockResponse().setResponseCode(400);
      }
      return new MockResponse().setResponseCode(204);
    }
    return new MockResponse().setResponseCode(404);
  }

  private static MockResponse rss(String items) {
    return new MockResponse()
        .setHeader("Content-Type", "application/rss+xml")
        .setBody(
            "<?xml version=\"1.0\"?><rss"
                + " version=\"2.0\"><channel><title>Fake</title><link>https://example.org/</link>"
                + "<description>d"
                + "</description>"
                + items
                + "</channel></rss>");
  }

  private static List<String> pageUrls(String text) {
    LinkedHashSet<String> urls = new LinkedHashSet<>();
    Matcher m = PAGE_URL.matcher(text);
    while (m.find()) urls.add(m.group());
    return List.copyOf(urls);
  }

  private void awaitRelease() {
    waiting.incrementAndGet();
    try {
      gate.await(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      waiting.decrementAndGet();
    }
  }

  /** The fixed latency, before anything is answered. */
  private static void pause(Duration latency) {
    try {
      Thread.sleep(latency.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws IOException {
    release();
    server.shutdown();
  }

  /** Server sockets whose accepted connections send without Nagle's algorithm. */
  private static final class NoDelaySockets extends ServerSocketFactory {
    @Override
    public ServerSocket createServerSocket() throws IOException {
      return new NoDelayServerSocket();
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
      return bound(port, 50, null);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog) throws IOException {
      return bound(port, backlog, null);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog, InetAddress address)
        throws IOException {
      return bound(port, backlog, address);
    }

    private static ServerSocket bound(int port, int backlog, InetAddress address)
        throws IOException {
      ServerSocket socket = new NoDelayServerSocket();
      socket.bind(new InetSocketAddress(address, port), backlog);
      return socket;
    }
  }

  private static final class NoDelayServerSocket extends ServerSocket {
    NoDelayServerSocket() throws IOException {}

    @Override
    public Socket accept() throws IOException {
      Socket socket = super.accept();
      socket.setTcpNoDelay(true);
      return socket;
    }
  }
}
