package io.periscope.config;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The typed view of the {@code periscope} block of the configuration. */
public record Settings(
    String httpHost,
    int httpPort,
    long maxBodyBytes,
    Duration askTimeout,
    Path dataDir,
    String jwtSecret,
    Duration tokenTtl,
    List<String> webOrigins,
    List<String> trustedProxies,
    String trustedProxyHeader,
    Database database,
    Integrations integrations,
    Providers providers,
    Push push,
    boolean allowPrivateNetworks,
    int runAllConcurrency,
    int runsPerNode,
    ZoneId scheduleTimeZone,
    Duration runDeadline,
    RateLimits rateLimits,
    String publicUrl,
    SignUp signUp,
    boolean metricsOnApiPort,
    int eventStreamsPerAccount) {

  /**
   * REGISTRATION and REGISTRATION_DOMAINS as written; {@code io.periscope.account.Registration}
   * reads them.
   */
  /**
   * The longest RUN_DEADLINE: a run-now or run-all caller waits 5 minutes for a run, its wait for a
   * slot included, so a run ended by its deadline still answers them.
   */
  public static final Duration MAX_RUN_DEADLINE = Duration.ofMinutes(4);

  /** RUN_HISTORY_RETENTION's default: the runs a watch's journal keeps at least. */
  public static final int DEFAULT_RUN_HISTORY_RETENTION = 1_000;

  /**
   * RUN_HISTORY_RETENTION, {@code periscope.runs.history-retention} (the default where a
   * configuration has none, as in tests of single entities); at least 100, the runs a watch keeps
   * in memory.
   */
  public static int runHistoryRetention(Config config) {
    String path = "periscope.runs.history-retention";
    int runs = config.hasPath(path) ? config.getInt(path) : DEFAULT_RUN_HISTORY_RETENTION;
    if (runs < 100)
      throw new IllegalArgumentException("RUN_HISTORY_RETENTION must be at least 100");
    return runs;
  }

  /**
   * How an alert's delivery to a channel is retried (docs/runs.md, "Deliveries"): after a retryable
   * failure, first after {@code firstBackoff}, each wait twice the one before up to {@code
   * maxBackoff}, with jitter, or after what the channel's Retry-After asked; none after {@code
   * retryFor} (DELIVERY_RETRY_FOR) since the alert was decided.
   */
  public record DeliveryRetry(Duration retryFor, Duration firstBackoff, Duration maxBackoff) {
    public static final DeliveryRetry DEFAULT =
        new DeliveryRetry(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofHours(1));
  }

  /**
   * {@code periscope.notify.retry}, the defaults where a configuration has none (as in tests of
   * single entities).
   */
  public static DeliveryRetry deliveryRetry(Config config) {
    String path = "periscope.notify.retry";
    if (!config.hasPath(path)) return DeliveryRetry.DEFAULT;
    Config c = config.getConfig(path);
    DeliveryRetry retry =
        new DeliveryRetry(
            c.getDuration("for"), c.getDuration("first-backoff"), c.getDuration("max-backoff"));
    if (retry.retryFor().isNegative())
      throw new IllegalArgumentException("DELIVERY_RETRY_FOR must not be negative");
    if (retry.firstBackoff().compareTo(Duration.ofMillis(100)) < 0
        || retry.maxBackoff().compareTo(retry.firstBackoff()) < 0)
      throw new IllegalArgumentException(
          "periscope.notify.retry: first-backoff must be at least 100ms and max-backoff at least"
              + " first-backoff");
    return retry;
  }

  /**
   * WATCH_FAILING_AFTER's default: the failed runs in a row after which a watch's owner is told.
   */
  public static final int DEFAULT_WATCH_FAILING_AFTER = 3;

  /**
   * WATCH_FAILING_AFTER, {@code periscope.notify.owner-failing-after} (the default where a
   * configuration has none, as in tests of single entities): after this many failed runs in a row
   * the owner is told on the watch's own channels (docs/runs.md, "Operational alerts"); 0 tells
   * owners nothing.
   */
  public static int watchFailingAfter(Config config) {
    String path = "periscope.notify.owner-failing-after";
    int runs = config.hasPath(path) ? config.getInt(path) : DEFAULT_WATCH_FAILING_AFTER;
    if (runs < 0 || runs > 100)
      throw new IllegalArgumentException("WATCH_FAILING_AFTER must be between 0 and 100");
    return runs;
  }

  public record SignUp(String mode, String domains) {}

  /**
   * What the environment configures, never the values: part of GET /config/status (the model and
   * search key pools, which admins change, are read live).
   */
  public record Integrations(boolean telegram, boolean telegramAdminChat, boolean email) {}

  /** The PostgreSQL journal; {@code url} is empty on the embedded H2 journal. */
  public record Database(String url, String user, String password) {
    public boolean configured() {
      return !url.isBlank();
    }

    @Override
    public String toString() {
      return "Database[url=" + url + ", user=" + user + "]"; // never the password
    }
  }

  /**
   * Model and search providers with the keys that seed their pools. Never printed with the keys.
   */
  public record Providers(
      String modelProvider,
      String modelBaseUrl,
      String modelName,
      List<String> modelKeys,
      String searchProvider,
      String searchBaseUrl,
      List<String> searchKeys) {
    @Override
    public String toString() {
      return "Providers[model="
          + modelProvider
          + " "
          + modelBaseUrl
          + " "
          + modelName
          + " ("
          + modelKeys.size()
          + " keys), search="
          + searchProvider
          + " "
          + searchBaseUrl
          + " ("
          + searchKeys.size()
          + " keys)]";
    }
  }

  /**
   * Web Push: the configured VAPID key pair (both empty when the service generates its own) and the
   * optional subject. Checked at start-up ({@link #from}); never printed with the private key.
   */
  public record Push(String vapidPublicKey, String vapidPrivateKey, String vapidSubject) {
    public boolean keysConfigured() {
      return !vapidPublicKey.isBlank();
    }

    @Override
    public String toString() {
      return "Push[vapidPublicKey=" + vapidPublicKey + ", vapidSubject=" + vapidSubject + "]";
    }
  }

  public record RateLimits(
      int authPerIpPerMinute,
      int aiPerOwnerPerMinute,
      int keyProbesPerMinute,
      int testSendsPerOwnerPerMinute,
      int sourcesPerOwnerPerMinute,
      int readsPerOwnerPerMinute) {}

  /**
   * What a profile may list under {@code periscope.required}, by environment variable: where each
   * lives in the configuration and why the profile cannot do without it.
   */
  private static final Map<String, Required> REQUIRABLE =
      Map.of(
          "PUBLIC_URL",
          new Required(
              "public-url",
              "the https:// address browsers reach the service at: mails and identity-provider"
                  + " callbacks link to it, and the sign-in cookie is Secure only behind https"),
          "METRICS_TOKEN",
          new Required(
              "metrics.token",
              "the management port's /metrics answers only scrapes that send it as a bearer"
                  + " token"));

  private record Required(String path, String why) {}

  /**
   * Every setting the profile requires ({@code periscope.required}) is set: the first one missing
   * stops the start, named with what it is for.
   */
  static void requireListed(Config p) {
    for (String variable : p.getStringList("required")) {
      Required required = REQUIRABLE.get(variable);
      if (required == null)
        throw new IllegalArgumentException(
            "periscope.required: " + variable + " is not a setting a profile can require");
      if (p.getString(required.path()).isBlank())
        throw new IllegalArgumentException(
            variable + " must be set on this profile: " + required.why());
    }
  }

  public static Settings from(Config config) {
    Config p = config.getConfig("periscope");
    requireListed(p);
    int concurrency = p.getInt("run-all.concurrency");
    Push push =
        new Push(
            p.getString("push.vapid-public-key").strip(),
            p.getString("push.vapid-private-key").strip(),
            p.getString("push.vapid-subject").strip());
    if (push.vapidPublicKey().isBlank() != push.vapidPrivateKey().isBlank()) {
      throw new IllegalArgumentException(
          "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all");
    }
    if (!push.vapidSubject().isEmpty()
        && !push.vapidSubject().startsWith("mailto:")
        && !push.vapidSubject().startsWith("https://")) {
      throw new IllegalArgumentException("VAPID_SUBJECT must be a mailto: or https: URL");
    }
    if (concurrency < 1)
      throw new IllegalArgumentException("RUN_ALL_CONCURRENCY must be at least 1");
    if (!List.of("plain", "json").contains(p.getString("log-format")))
      throw new IllegalArgumentException("LOG_FORMAT must be plain or json");
    int runsPerNode = p.getInt("runs.per-node");
    if (runsPerNode < 1) throw new IllegalArgumentException("RUNS_PER_NODE must be at least 1");
    runHistoryRetention(config);
    deliveryRetry(config);
    watchFailingAfter(config);
    Duration runDeadline = p.getDuration("runs.deadline");
    if (runDeadline.compareTo(Duration.ofSeconds(1)) < 0
        || runDeadline.compareTo(MAX_RUN_DEADLINE) > 0)
      throw new IllegalArgumentException("RUN_DEADLINE must be between 1s and 4m");
    int eventStreamsPerAccount = p.getInt("http.event-streams-per-account");
    if (eventStreamsPerAccount < 1)
      throw new IllegalArgumentException("EVENT_STREAMS_PER_ACCOUNT must be at least 1");
    int readsPerOwnerPerMinute = p.getInt("rate-limits.reads-per-owner-per-minute");
    if (readsPerOwnerPerMinute < 1)
      throw new IllegalArgumentException("READS_PER_OWNER_PER_MINUTE must be at least 1");
    return new Settings(
        p.getString("http.host"),
        p.getInt("http.port"),
        p.getBytes("http.max-body-bytes"),
        p.getDuration("http.ask-timeout"),
        Path.of(p.getString("data-dir-absolute")),
        p.getString("auth.jwt-secret"),
        Durations.parseTtl(p.getString("auth.token-ttl")),
        webOrigins(p.getString("web-origin")),
        commaList(p.getString("http.trusted-proxies")),
        p.getString("http.trusted-proxy-header").strip(),
        new Database(
            p.getString("database.url"),
            p.getString("database.user"),
            p.getString("database.password")),
        new Integrations(
            !p.getString("telegram.bot-token").isBlank()
                && !p.getString("telegram.chat-id").isBlank(),
            !p.getString("telegram.bot-token").isBlank()
                && !(p.getString("telegram.admin-chat-id") + p.getString("telegram.chat-id"))
                    .isBlank(),
            !p.getString("smtp.host").isBlank() && !p.getString("smtp.from").isBlank()),
        new Providers(
            p.getString("model.provider"),
            p.getString("model.base-url"),
            p.getString("model.name"),
            seededKeys("MODEL_API_KEYS", p.getString("model.api-keys")),
            p.getString("search.provider"),
            p.getString("search.base-url"),
            seededKeys("SEARCH_API_KEYS", p.getString("search.api-keys"))),
        push,
        p.getBoolean("fetch.allow-private-networks"),
        concurrency,
        runsPerNode,
        scheduleTimeZone(p.getString("schedule-time-zone")),
        runDeadline,
        new RateLimits(
            p.getInt("rate-limits.auth-per-ip-per-minute"),
            p.getInt("rate-limits.ai-per-owner-per-minute"),
            p.getInt("rate-limits.key-probes-per-minute"),
            p.getInt("rate-limits.test-sends-per-owner-per-minute"),
            p.getInt("rate-limits.sources-per-owner-per-minute"),
            readsPerOwnerPerMinute),
        publicUrl(p.getString("public-url"), p.getInt("http.port")),
        new SignUp(p.getString("registration.mode"), p.getString("registration.domains")),
        p.getBoolean("metrics.enabled") && !p.getBoolean("management.enabled"),
        eventStreamsPerAccount);
  }

  /** SCHEDULE_TIME_ZONE: an IANA name, the zone of watches that name none. */
  static ZoneId scheduleTimeZone(String name) {
    if (!ZoneId.getAvailableZoneIds().contains(name)) {
      throw new IllegalArgumentException(
          "SCHEDULE_TIME_ZONE must be an IANA time zone name, such as Europe/Berlin or UTC, not '"
              + name
              + "'");
    }
    return ZoneId.of(name);
  }

  /**
   * WEB_ORIGIN's origins, lower-cased and without a default port (as browsers send an Origin). A
   * value that is not an origin, {@code http(s)://host[:port]} and nothing more, stops the start: a
   * trailing slash or a path would never match any browser's Origin, and CORS would fail quietly.
   */
  static List<String> webOrigins(String value) {
    return commaList(value).stream().map(Settings::origin).toList();
  }

  private static String origin(String written) {
    String problem = "WEB_ORIGIN: '" + written + "' is not an origin (http(s)://host[:port])";
    java.net.URI uri;
    try {
      uri = new java.net.URI(written);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(problem);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    boolean bare =
        uri.getRawUserInfo() == null
            && (uri.getRawPath() == null || uri.getRawPath().isEmpty())
            && uri.getRawQuery() == null
            && uri.getRawFragment() == null;
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare) {
      throw new IllegalArgumentException(problem);
    }
    int port = uri.getPort();
    boolean defaultPort = port == -1 || port == (scheme.equals("https") ? 443 : 80);
    return scheme
        + "://"
        + uri.getHost().toLowerCase(Locale.ROOT)
        + (defaultPort ? "" : ":" + port);
  }

  /** PUBLIC_URL without a trailing '/', or the service on this machine's port. */
  static String publicUrl(String configured, int port) {
    String url = configured.trim();
    if (url.isEmpty()) return "http://localhost:" + port;
    if (!url.startsWith("http://") && !url.startsWith("https://")) {
      throw new IllegalArgumentException("PUBLIC_URL must be an http(s) URL");
    }
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /**
   * The keys an operator seeds a pool with: printable ASCII without spaces, what a request header
   * can carry (the rule keys added through /admin/keys follow). A key that breaks it is refused at
   * start-up, by position only: a header library's error would quote it, and from there it could
   * reach a log line.
   */
  public static List<String> seededKeys(String variable, String value) {
    List<String> keys = commaList(value);
    for (int i = 0; i < keys.size(); i++) {
      if (!keys.get(i).chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        throw new IllegalArgumentException(
            variable
                + ": key "
                + (i + 1)
                + " of "
                + keys.size()
                + " is not printable ASCII without spaces");
      }
    }
    return keys;
  }

  public static List<String> commaList(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }
}
