package io.periscope.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A load driver for a running Periscope service: a benchmark harness, not a test (the name keeps
 * surefire and failsafe away from it). Closed loop: C client threads, each sends its next request
 * as soon as the previous one answered, over its own keep-alive HTTP/1.1 connection (plain blocking
 * sockets, so the driver costs little of the CPU it shares with the service). Each scenario runs a
 * warm-up, then a measured window; only requests started inside the window count.
 *
 * <pre>
 * java -cp target/periscope.jar:target/test-classes io.periscope.bench.LoadDriver \
 *   --base http://127.0.0.1:18090 --email bench@example.org --password 'Bench-pass-phrase-1!' \
 *   --clients 32 --seconds 20 --warmup 5 --scenario all
 * </pre>
 *
 * {@code --email} may be a comma-separated list (same password for all, or a matching
 * comma-separated {@code --password} list): each account logs in once (/auth/* is limited to 20 a
 * minute per IP) and the clients are spread over the accounts round robin, so the create scenario
 * can use several owners. {@code --base} may be a comma-separated list of the nodes of a cluster:
 * client {@code c} talks to node {@code c mod n}, the accounts sign in and create their read watch
 * through the first. {@code --tsv FILE} appends one tab-separated line per scenario for scripts.
 */
public final class LoadDriver {
  static final String WATCH_BODY =
      "{\"id\":\"%s\",\"name\":\"Bench\",\"sources\":[{\"type\":\"rss\",\"value\":\"https://examp"
          + "le.org/feed.xml\"}],\"schedule\":\"0"
          + " 0 1 1 *\",\"condition\":\"anything\","
          + "\"channels\":[],\"threshold\":0.8,\"enabled\":true}";
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private LoadDriver() {}

  record Options(
      List<URI> bases,
      List<String> emails,
      List<String> passwords,
      int clients,
      int seconds,
      int warmup,
      List<String> scenarios,
      String label,
      String tsv) {}

  /** One account the driver logged in as, with the watch the read scenario reads. */
  record Session(String email, String token, String readWatchId) {}

  public static void main(String[] argv) throws Exception {
    Options o;
    try {
      o = parse(argv);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println(
          "usage: LoadDriver --base URL --email E[,E2..] --password P[,P2..] --clients N --seconds"
              + " S --warmup S --scenario health|read|create|all [--label TEXT] [--tsv FILE]");
      System.exit(2);
      return;
    }
    String run = Long.toString(System.currentTimeMillis(), 36);
    HttpClient setup = client();
    List<Session> sessions = new ArrayList<>();
    boolean needsAuth = o.scenarios().stream().anyMatch(s -> !s.equals("health"));
    if (needsAuth) {
      for (int i = 0; i < o.emails().size(); i++) {
        String email = o.emails().get(i);
        String token =
            login(
                setup,
                o.bases().get(0),
                email,
                o.passwords().get(Math.min(i, o.passwords().size() - 1)));
        String readId = "bench-read-" + run + "-" + i;
        HttpResponse<String> created =
            setup.send(
                post(o.bases().get(0), "/watches", token, String.format(WATCH_BODY, readId)),
                HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() != 201) {
          throw new IllegalStateException(
              "creating the read watch answered " + created.statusCode() + ": " + created.body());
        }
        sessions.add(new Session(email, token, readId));
      }
    }
    System.out.printf(
        Locale.ROOT,
        "# base=%s clients=%d warmup=%ds measure=%ds accounts=%d cpus=%d label=%s%n",
        o.bases(),
        o.clients(),
        o.warmup(),
        o.seconds(),
        Math.max(1, sessions.size()),
        Runtime.getRuntime().availableProcessors(),
        o.label());
    System.out.println(Result.HEADER);
    for (String scenario : o.scenarios()) {
      Result r = runScenario(o, scenario, sessions, run);
      System.out.println(r.line());
      if (!r.statuses().isEmpty()) System.out.println("#   statuses " + r.statuses());
      if (o.tsv() != null) {
        java.nio.file.Files.writeString(
            java.nio.file.Path.of(o.tsv()),
            r.tsv(o) + "\n",
            StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.APPEND);
      }
    }
  }

  // ---- one scenario
  // ------------------------------------------------------------------------------

  /** What one client thread saw in the measured window. */
  static final class Recorder {
    long[] latencies = new long[1 << 14];
    int count;
    int errors;
    final Map<String, Integer> statuses = new TreeMap<>();

    void record(long nanos, boolean ok, String status) {
      if (count == latencies.length) latencies = Arrays.copyOf(latencies, count * 2);
      latencies[count++] = nanos;
      if (!ok) {
        errors++;
        statuses.merge(status, 1, Integer::sum);
      }
    }
  }

  static Result runScenario(Options o, String scenario, List<Session> sessions, String run)
      throws Exception {
    int n = o.clients();
    Recorder[] recorders = new Recorder[n];
    Thread[] threads = new Thread[n];
    CountDownLatch ready = new CountDownLatch(n);
    CountDownLatch go = new CountDownLatch(1);
    long[] window = new long[2]; // measure start, measure end (System.nanoTime), set before go
    for (int c = 0; c < n; c++) {
      int client = c;
      Recorder rec = new Recorder();
      recorders[c] = rec;
      Session session = sessions.isEmpty() ? null : sessions.get(c % sessions.size());
      URI base = o.bases().get(c % o.bases().size());
      threads[c] =
          new Thread(
              () -> {
                try (Connection http = new Connection(base)) {
                  ready.countDown();
                  go.await();
                  long seq = 0;
                  while (true) {
                    long start = System.nanoTime();
                    if (start - window[1] >= 0) break;
                    byte[] request =
                        switch (scenario) {
                          case "health" -> Connection.request("GET", base, "/health", null, null);
                          case "read" ->
                              Connection.request(
                                  "GET",
                                  base,
                                  "/watches/" + session.readWatchId(),
                                  session.token(),
                                  null);
                          case "create" ->
                              Connection.request(
                                  "POST",
                                  base,
                                  "/watches",
                                  session.token(),
                                  String.format(
                                      WATCH_BODY, "w-" + run + "-" + client + "-" + (seq++)));
                          default -> throw new IllegalArgumentException(scenario);
                        };
                    boolean ok;
                    String status;
                    try {
                      int code = http.exchange(request);
                      ok = code / 100 == 2;
                      status = Integer.toString(code);
                    } catch (IOException e) {
                      ok = false;
                      status = e.getClass().getSimpleName();
                      http.reconnect();
                    }
                    long end = System.nanoTime();
                    if (start - window[0] >= 0) rec.record(end - start, ok, status);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              },
              "client-" + c);
      threads[c].setDaemon(true);
      threads[c].start();
    }
    ready.await();
    long now = System.nanoTime();
    window[0] = now + Duration.ofSeconds(o.warmup()).toNanos();
    window[1] = window[0] + Duration.ofSeconds(o.seconds()).toNanos();
    go.countDown();
    for (Thread t : threads) t.join();

    int total = 0;
    int errors = 0;
    Map<String, Integer> statuses = new TreeMap<>();
    for (Recorder r : recorders) {
      total += r.count;
      errors += r.errors;
      r.statuses.forEach((k, v) -> statuses.merge(k, v, Integer::sum));
    }
    long[] all = new long[total];
    int at = 0;
    for (Recorder r : recorders) {
      System.arraycopy(r.latencies, 0, all, at, r.count);
      at += r.count;
    }
    Arrays.sort(all);
    return new Result(
        scenario,
        n,
        total,
        errors,
        total / (double) o.seconds(),
        pct(all, 50),
        pct(all, 90),
        pct(all, 99),
        all.length == 0 ? 0 : all[all.length - 1] / 1e6,
        statuses);
  }

  /** Nearest-rank percentile in milliseconds. */
  static double pct(long[] sorted, double p) {
    if (sorted.length == 0) return 0;
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
  }

  record Result(
      String scenario,
      int clients,
      int requests,
      int errors,
      double throughput,
      double p50,
      double p90,
      double p99,
      double max,
      Map<String, Integer> statuses) {
    static final String HEADER =
        String.format(
            Locale.ROOT,
            "%-8s %7s %9s %7s %10s %8s %8s %8s %8s",
            "scenario",
            "clients",
            "requests",
            "errors",
            "req/s",
            "p50ms",
            "p90ms",
            "p99ms",
            "maxms");

    String line() {
      return String.format(
          Locale.ROOT,
          "%-8s %7d %9d %7d %10.1f %8.2f %8.2f %8.2f %8.2f",
          scenario,
          clients,
          requests,
          errors,
          throughput,
          p50,
          p90,
          p99,
          max);
    }

    String tsv(Options o) {
      return String.join(
          "\t",
          o.label(),
          scenario,
          Integer.toString(clients),
          Integer.toString(o.emails().size()),
          Integer.toString(requests),
          Integer.toString(errors),
          String.format(Locale.ROOT, "%.1f", throughput),
          String.format(Locale.ROOT, "%.2f", p50),
          String.format(Locale.ROOT, "%.2f", p90),
          String.format(Locale.ROOT, "%.2f", p99),
          String.format(Locale.ROOT, "%.2f", max));
    }
  }

  // ---- HTTP
  // --------------------------------------------------------------------------------------

  /**
   * One keep-alive HTTP/1.1 connection with blocking I/O, for the measured loop: the JDK's
   * HttpClient runs a selector thread and an executor per client, and 32 of those took a large
   * share of the two cores the service shares with the driver. The service answers every request
   * with a Content-Length, which is all this reads.
   */
  static final class Connection implements AutoCloseable {
    private final URI base;
    private java.net.Socket socket;
    private java.io.BufferedInputStream in;
    private java.io.OutputStream out;

    Connection(URI base) throws IOException {
      this.base = base;
      reconnect();
    }

    void reconnect() throws IOException {
      close();
      socket = new java.net.Socket(base.getHost(), base.getPort());
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) REQUEST_TIMEOUT.toMillis());
      in = new java.io.BufferedInputStream(socket.getInputStream(), 16 * 1024);
      out = socket.getOutputStream();
    }

    static byte[] request(String method, URI base, String path, String token, String json) {
      StringBuilder b =
          new StringBuilder(256)
              .append(method)
              .append(' ')
              .append(path)
              .append(" HTTP/1.1\r\nHost: ")
              .append(base.getHost())
              .append(':')
              .append(base.getPort())
              .append("\r\n");
      if (token != null) b.append("Authorization: Bearer ").append(token).append("\r\n");
      byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
      if (json != null) b.append("Content-Type: application/json\r\n");
      if (json != null || !method.equals("GET"))
        b.append("Content-Length: ").append(body.length).append("\r\n");
      byte[] head = b.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
      byte[] all = Arrays.copyOf(head, head.length + body.length);
      System.arraycopy(body, 0, all, head.length, body.length);
      return all;
    }

    /** Sends the request and reads the whole answer; returns its status code. */
    int exchange(byte[] request) throws IOException {
      out.write(request);
      out.flush();
      String statusLine = line();
      if (statusLine.length() < 12) throw new IOException("no status line: " + statusLine);
      int status = Integer.parseInt(statusLine.substring(9, 12));
      long length = 0;
      boolean close = false;
      for (String header = line(); !header.isEmpty(); header = line()) {
        int colon = header.indexOf(':');
        String name = colon < 0 ? header : header.substring(0, colon).trim();
        if (name.equalsIgnoreCase("content-length"))
          length = Long.parseLong(header.substring(colon + 1).trim());
        if (name.equalsIgnoreCase("connection")
            && header.toLowerCase(Locale.ROOT).contains("close")) close = true;
      }
      for (long left = length; left > 0; ) {
        long skipped = in.skip(left);
        if (skipped <= 0) {
          if (in.read() < 0) throw new IOException("the connection closed inside a body");
          skipped = 1;
        }
        left -= skipped;
      }
      if (close) reconnect();
      return status;
    }

    private String line() throws IOException {
      StringBuilder b = new StringBuilder(64);
      for (int ch = in.read(); ch != '\n'; ch = in.read()) {
        if (ch < 0) throw new IOException("the connection closed");
        if (ch != '\r') b.append((char) ch);
      }
      return b.toString();
    }

    @Override
    public void close() throws IOException {
      if (socket != null) socket.close();
    }
  }

  static HttpClient client() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  static HttpRequest post(URI base, String path, String token, String json) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (token != null) b.header("Authorization", "Bearer " + token);
    return b.build();
  }

  private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");

  static String login(HttpClient http, URI base, String email, String password) throws Exception {
    String body = "{\"email\":" + quote(email) + ",\"password\":" + quote(password) + "}";
    HttpResponse<String> r =
        http.send(post(base, "/auth/login", null, body), HttpResponse.BodyHandlers.ofString());
    Matcher m = TOKEN.matcher(r.body());
    if (r.statusCode() != 200 || !m.find()) {
      throw new IllegalStateException(
          "login of " + email + " answered " + r.statusCode() + ": " + r.body());
    }
    return m.group(1);
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') b.append('\\').append(ch);
      else if (ch < 0x20) b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
      else b.append(ch);
    }
    return b.append('"').toString();
  }

  // ---- arguments
  // ---------------------------------------------------------------------------------

  static Options parse(String[] argv) {
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (!argv[i].startsWith("--") || i + 1 >= argv.length)
        throw new IllegalArgumentException("bad argument " + argv[i]);
      a.put(argv[i].substring(2), argv[++i]);
    }
    for (String k : a.keySet()) {
      if (!List.of(
              "base",
              "email",
              "password",
              "clients",
              "seconds",
              "warmup",
              "scenario",
              "label",
              "tsv")
          .contains(k)) {
        throw new IllegalArgumentException("unknown option --" + k);
      }
    }
    List<URI> bases =
        Arrays.stream(a.getOrDefault("base", "http://127.0.0.1:18090").split(","))
            .map(String::trim)
            .map(URI::create)
            .toList();
    String scenario = a.getOrDefault("scenario", "all");
    List<String> scenarios =
        scenario.equals("all") ? List.of("health", "read", "create") : List.of(scenario);
    for (String s : scenarios) {
      if (!List.of("health", "read", "create").contains(s))
        throw new IllegalArgumentException("unknown scenario " + s);
    }
    List<String> emails = List.of(a.getOrDefault("email", "").split(","));
    List<String> passwords = List.of(a.getOrDefault("password", "").split(",", -1));
    if (!scenarios.equals(List.of("health"))
        && (emails.get(0).isEmpty() || passwords.get(0).isEmpty())) {
      throw new IllegalArgumentException("--email and --password are required for read and create");
    }
    int clients = Integer.parseInt(a.getOrDefault("clients", "8"));
    int seconds = Integer.parseInt(a.getOrDefault("seconds", "20"));
    int warmup = Integer.parseInt(a.getOrDefault("warmup", "5"));
    if (clients < 1 || seconds < 1 || warmup < 0)
      throw new IllegalArgumentException("clients and seconds >= 1");
    return new Options(
        bases,
        emails,
        passwords,
        clients,
        seconds,
        warmup,
        scenarios,
        a.getOrDefault("label", "-"),
        a.get("tsv"));
  }
}
