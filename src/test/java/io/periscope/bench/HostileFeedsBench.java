package io.periscope.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * The memory benchmark (a run uses bounded memory): a node with a small heap against hostile feeds
 * and pages. A benchmark harness, not a test (the name keeps surefire away from it);
 * docs/performance.md has the command and its figures.
 *
 * <p>It serves hostile feeds and pages on loopback (bodies far past the byte limits, plain and
 * gzip-compressed; ~5 MB of nesting; ~5 MB of items with huge fields; tens of thousands of
 * elements; bodies that never end; bytes that are no feed; a JSON feed of huge items), starts
 * {@code java -Xmx<heap> -XX:+ExitOnOutOfMemoryError -jar <jar> serve} on a fresh data directory
 * (no model is configured: every run collects and extracts, then ends at the verdict), creates
 * {@code --watches} watches of {@code --sources} sources each, runs them all at once with {@code
 * POST /watches/:id/run}, and reports each run's answer and time, the heap after each collection
 * (from the service's GC log) and whether the service still answers {@code /health}. It exits 1
 * when a run got no answer or the service died.
 *
 * <pre>
 * mvn -q -DskipTests package test-compile
 * java -cp target/test-classes io.periscope.bench.HostileFeedsBench --jar target/periscope.jar \
 *   --heap 512m --watches 20 --sources 20
 * </pre>
 */
public final class HostileFeedsBench {
  private static final String PASSWORD = "Hostile-bench-pass-phrase-1!";
  private static final int MB = 1 << 20;

  /**
   * What each source of a watch serves, in turn (a watch of 20 sources takes each once or more).
   */
  private static final List<String> KINDS =
      List.of(
          "huge",
          "bomb",
          "nested",
          "fields",
          "elements",
          "endless",
          "pages",
          "garbage",
          "json",
          "html",
          "normal",
          "normal",
          "normal",
          "normal",
          "normal",
          "normal",
          "normal",
          "normal",
          "normal",
          "normal");

  private HostileFeedsBench() {}

  public static void main(String[] args) throws Exception {
    String jar = option(args, "--jar", "target/periscope.jar");
    String heap = option(args, "--heap", "512m");
    int watches = Integer.parseInt(option(args, "--watches", "20"));
    int sources = Integer.parseInt(option(args, "--sources", "20"));
    Path work = Files.createTempDirectory("periscope-hostile-");
    HttpServer hostile = hostileServer();
    Process service = null;
    int exit = 1;
    try {
      int port = freePort();
      String feeds = "http://127.0.0.1:" + hostile.getAddress().getPort();
      List<String> java =
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx" + heap,
              "-XX:+ExitOnOutOfMemoryError",
              "-Xlog:gc:file=" + work.resolve("gc.log"),
              "-jar",
              jar);
      ProcessBuilder create = builder(java, work, port, "users", "create", "--id", "bench");
      create.command().addAll(List.of("--email", "bench@example.org", "--role", "user"));
      Process p = create.start();
      p.getOutputStream().write((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().close();
      if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0)
        throw new IllegalStateException("users create failed: see " + work.resolve("cli.log"));
      service = builder(java, work, port, "serve").start();
      String base = "http://127.0.0.1:" + port;
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      waitForHealth(client, base, service);
      String token =
          field(
              post(
                      client,
                      base + "/auth/login",
                      null,
                      "{\"email\":\"bench@example.org\",\"password\":\"" + PASSWORD + "\"}")
                  .body(),
              "token");
      for (int w = 0; w < watches; w++) {
        StringBuilder list = new StringBuilder();
        for (int s = 0; s < sources; s++) {
          if (s > 0) list.append(',');
          String kind = KINDS.get(s % KINDS.size());
          list.append("{\"type\":\"rss\",\"value\":\"")
              .append(feeds)
              .append("/feed/")
              .append(kind)
              .append("/")
              .append(w)
              .append("/")
              .append(s)
              .append("\"}");
        }
        String body =
            "{\"id\":\"w"
                + w
                + "\",\"name\":\"Hostile "
                + w
                + "\",\"condition\":\"anything\",\"sources\":["
                + list
                + "],\"schedule\":\"0 0 1 1 *\",\"threshold\":0.8,\"enabled\":false}";
        HttpResponse<String> created = post(client, base + "/watches", token, body);
        if (created.statusCode() != 201)
          throw new IllegalStateException("create watch: " + created.statusCode());
      }
      System.out.printf(
          Locale.ROOT,
          "%d runs of %d sources each, at once, against -Xmx%s%n",
          watches,
          sources,
          heap);
      long start = System.nanoTime();
      List<CompletableFuture<String>> runs = new ArrayList<>();
      for (int w = 0; w < watches; w++) {
        String watch = "w" + w;
        runs.add(
            client
                .sendAsync(
                    HttpRequest.newBuilder(URI.create(base + "/watches/" + watch + "/run"))
                        .timeout(Duration.ofMinutes(10))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .handle(
                    (r, e) ->
                        e == null
                            ? String.format(
                                Locale.ROOT,
                                "%-3s HTTP %d after %5.1f s  %s",
                                watch,
                                r.statusCode(),
                                (System.nanoTime() - start) / 1e9,
                                summary(r.body()))
                            : recorded(client, base, token, watch, start, e)));
      }
      CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
      runs.forEach(r -> System.out.println(r.join()));
      boolean answered = runs.stream().noneMatch(r -> r.join().contains("no run"));
      boolean alive = service.isAlive() && health(client, base);
      System.out.printf(
          Locale.ROOT,
          "every run finished with a record: %s; service alive and healthy after: %s; wall time"
              + " %.1f s%n",
          answered,
          alive,
          (System.nanoTime() - start) / 1e9);
      System.out.println(heapReport(work.resolve("gc.log")));
      exit = answered && alive ? 0 : 1;
    } finally {
      if (service != null) {
        service.destroy();
        if (!service.waitFor(60, TimeUnit.SECONDS)) service.destroyForcibly();
      }
      hostile.stop(0);
      ((ExecutorService) hostile.getExecutor()).shutdownNow();
      if (exit == 0) deleteTree(work);
      else System.out.println("logs kept in " + work);
    }
    System.exit(exit);
  }

  // ---- the hostile server -----------------------------------------------------------------------

  private static HttpServer hostileServer() throws IOException {
    byte[] bomb = gzip(repeat("<item><title>bomb</title></item>", 100 * MB));
    byte[] garbage = new byte[3 * MB];
    new Random(21).nextBytes(garbage);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            String[] path = exchange.getRequestURI().getPath().split("/");
            String kind = path.length > 2 ? path[2] : "";
            String tag = path.length > 4 ? path[3] + "-" + path[4] : "x";
            if (path[1].equals("page")) page(exchange, kind);
            else feed(exchange, kind, tag, bomb, garbage);
          } catch (IOException closedByTheClient) {
            // the collector stops reading past its limit or its deadline
          }
        });
    server.start();
    return server;
  }

  private static void feed(
      HttpExchange exchange, String kind, String tag, byte[] bomb, byte[] garbage)
      throws IOException {
    String rss = "application/rss+xml; charset=utf-8";
    String head = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>";
    switch (kind) {
      case "huge" -> stream(exchange, rss, head, "<item><title>huge</title></item>", 60 * MB);
      case "bomb" -> {
        exchange.getResponseHeaders().add("Content-Type", rss);
        exchange.getResponseHeaders().add("Content-Encoding", "gzip");
        send(exchange, bomb);
      }
      case "nested" -> {
        String item = "<item><guid>" + tag + "</guid><title>deep</title></item>";
        stream(exchange, rss, head + item, "<a>", 5 * MB - 1024);
      }
      case "fields" -> {
        StringBuilder feed = new StringBuilder(head);
        String title = "T".repeat(8 * 1024);
        String text = "\u00e9".repeat(8 * 1024); // two bytes each: a non-Latin-1-free summary
        for (int i = 0; i < 190; i++) {
          feed.append("<item><guid>")
              .append(tag)
              .append("-")
              .append(i)
              .append("-")
              .append("g".repeat(2048))
              .append("</guid><title>")
              .append(title)
              .append("</title><description>")
              .append(text)
              .append("</description></item>");
        }
        send(exchange, rss, feed.append("</channel></rss>").toString());
      }
      case "elements" ->
          stream(
              exchange,
              rss,
              head + "<item><guid>" + tag + "</guid><title>e</title>",
              "<x/>",
              5 * MB - 1024);
      case "endless" -> {
        exchange.getResponseHeaders().add("Content-Type", rss);
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        out.write(head.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 600; i++) { // ten minutes, far past any deadline
          out.write("<item><title>slow</title></item>".getBytes(StandardCharsets.UTF_8));
          out.flush();
          sleep(1000);
        }
      }
      case "pages" -> {
        StringBuilder feed = new StringBuilder(head);
        for (String page : List.of("huge", "nested", "elements", "endless")) {
          feed.append("<item><title>")
              .append(page)
              .append("</title><link>http://127.0.0.1:")
              .append(exchange.getLocalAddress().getPort())
              .append("/page/")
              .append(page)
              .append("/")
              .append(tag)
              .append("</link></item>");
        }
        send(exchange, rss, feed.append("</channel></rss>").toString());
      }
      case "garbage" -> {
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        send(exchange, garbage);
      }
      case "json" -> {
        StringBuilder json =
            new StringBuilder("{\"version\":\"https://jsonfeed.org/version/1.1\",\"items\":[");
        for (int i = 0; i < 250; i++) {
          if (i > 0) json.append(',');
          json.append("{\"id\":\"")
              .append(tag)
              .append(i)
              .append("\",\"title\":\"")
              .append("J".repeat(16 * 1024))
              .append("\"}");
        }
        send(exchange, "application/feed+json", json.append("]}").toString());
      }
      case "html" ->
          stream(exchange, "text/html", "<html><body>", "<div><p>not a feed</p></div>", 4 * MB);
      default -> {
        StringBuilder feed = new StringBuilder(head);
        for (int i = 0; i < 20; i++) {
          feed.append("<item><title>Item ")
              .append(i)
              .append("</title><link>http://127.0.0.1:")
              .append(exchange.getLocalAddress().getPort())
              .append("/page/small/")
              .append(tag)
              .append("/")
              .append(i)
              .append("</link><description>A normal item.</description>")
              .append("<pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate></item>");
        }
        send(exchange, rss, feed.append("</channel></rss>").toString());
      }
    }
  }

  private static void page(HttpExchange exchange, String kind) throws IOException {
    String html = "text/html; charset=utf-8";
    switch (kind) {
      case "huge" -> stream(exchange, html, "<html><body><article>", "<p>huge page</p>", 40 * MB);
      case "nested" -> stream(exchange, html, "<html><body>", "<div>", 2 * MB - 1024);
      case "elements" -> stream(exchange, html, "<html><body><article>", "<b>x</b>", 2 * MB - 1024);
      case "endless" -> {
        exchange.getResponseHeaders().add("Content-Type", html);
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        for (int i = 0; i < 600; i++) {
          out.write("<p>slow</p>".getBytes(StandardCharsets.UTF_8));
          out.flush();
          sleep(1000);
        }
      }
      default ->
          send(
              exchange,
              html,
              "<html><body><article><h1>A page</h1><p>"
                  + "Some article text. ".repeat(200)
                  + "</p></article></body></html>");
    }
  }

  /** {@code head}, then {@code unit} until {@code bytes} were sent, chunked. */
  private static void stream(
      HttpExchange exchange, String type, String head, String unit, int bytes) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    out.write(head.getBytes(StandardCharsets.UTF_8));
    byte[] block = repeat(unit, 64 * 1024);
    for (int sent = head.length(); sent < bytes; sent += block.length)
      out.write(block, 0, Math.min(block.length, bytes - sent));
  }

  private static void send(HttpExchange exchange, String type, String body) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", type);
    send(exchange, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, byte[] body) throws IOException {
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
  }

  private static byte[] repeat(String unit, int bytes) {
    return unit.repeat(Math.max(1, bytes / unit.length())).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(plain);
    }
    return out.toByteArray();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- the service
  // --------------------------------------------------------------------------------

  private static ProcessBuilder builder(List<String> java, Path work, int port, String... args) {
    List<String> command = new ArrayList<>(java);
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command);
    b.environment().put("DATA_DIR", work.resolve("data").toString());
    b.environment().put("PORT", Integer.toString(port));
    b.environment().put("REMOTE_PORT", Integer.toString(freePort()));
    b.environment().put("FETCH_ALLOW_PRIVATE_NETWORKS", "true");
    b.environment().put("PERISCOPE_LOG_LEVEL", "WARN");
    b.redirectErrorStream(true);
    b.redirectOutput(
        ProcessBuilder.Redirect.appendTo(
            work.resolve(args[0].equals("serve") ? "service.log" : "cli.log").toFile()));
    return b;
  }

  private static void waitForHealth(HttpClient client, String base, Process service)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      if (!service.isAlive()) throw new IllegalStateException("the service exited at start-up");
      if (health(client, base)) return;
      Thread.sleep(500);
    }
    throw new IllegalStateException("the service did not answer /health within 180 s");
  }

  private static boolean health(HttpClient client, String base) {
    try {
      return client
              .send(
                  HttpRequest.newBuilder(URI.create(base + "/health"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static HttpResponse<String> post(HttpClient client, String url, String token, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) request.header("Authorization", "Bearer " + token);
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * When the run-now answer is lost (the HTTP server closes a connection idle for 60 s, shorter
   * than a run against tarpits), the run's record, polled from the run history for ten minutes.
   */
  private static String recorded(
      HttpClient client, String base, String token, String watch, long start, Throwable lost) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    try {
      while (System.nanoTime() < deadline) {
        HttpResponse<String> runs =
            client.send(
                HttpRequest.newBuilder(URI.create(base + "/watches/" + watch + "/runs?limit=1"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (runs.statusCode() == 200 && runs.body().contains("\"outcome\"")) {
          return String.format(
              Locale.ROOT,
              "%-3s recorded by %5.1f s (answer lost: %s)  %s",
              watch,
              (System.nanoTime() - start) / 1e9,
              lost.getCause() == null ? lost : lost.getCause().getClass().getSimpleName(),
              summary(runs.body()));
        }
        Thread.sleep(2000);
      }
    } catch (IOException e) {
      return watch + " no run recorded (" + e.getClass().getSimpleName() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return watch + " no run recorded within ten minutes";
  }

  /** A run's outcome, its collected count and its source errors by kind. */
  private static String summary(String body) {
    StringBuilder kinds = new StringBuilder();
    Matcher m = Pattern.compile("\"kind\"\\s*:\\s*\"([a-z-]+)\"").matcher(body);
    List<String> found = new ArrayList<>();
    while (m.find()) found.add(m.group(1));
    found.stream()
        .distinct()
        .sorted()
        .forEach(
            k ->
                kinds
                    .append(' ')
                    .append(k)
                    .append('×')
                    .append(found.stream().filter(k::equals).count()));
    return "outcome="
        + field(body, "outcome")
        + " collected="
        + number(body, "collected")
        + " sourceErrors:"
        + kinds;
  }

  private static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
    return m.find() ? m.group(1) : "?";
  }

  private static String number(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\\d+)").matcher(json);
    return m.find() ? m.group(1) : "?";
  }

  /** The largest heap before and after a collection, from {@code -Xlog:gc}'s pause lines. */
  private static String heapReport(Path gcLog) throws IOException {
    Pattern pause = Pattern.compile("Pause.*? (\\d+)M->(\\d+)M\\((\\d+)M\\)");
    int before = 0;
    int after = 0;
    int committed = 0;
    int pauses = 0;
    for (String line : Files.readAllLines(gcLog)) {
      Matcher m = pause.matcher(line);
      if (!m.find()) continue;
      pauses++;
      before = Math.max(before, Integer.parseInt(m.group(1)));
      after = Math.max(after, Integer.parseInt(m.group(2)));
      committed = Math.max(committed, Integer.parseInt(m.group(3)));
    }
    return String.format(
        Locale.ROOT,
        "heap over the service's life: %d collections, at most %d MB before one and %d MB after"
            + " one (the live set), %d MB committed at most",
        pauses,
        before,
        after,
        committed);
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) if (args[i].equals(name)) return args[i + 1];
    return fallback;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
