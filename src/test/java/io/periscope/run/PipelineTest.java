package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.devices.DeviceValidator;
import io.periscope.devices.DevicesEntity;
import io.periscope.devices.Vapid;
import io.periscope.devices.VapidKeys;
import io.periscope.devices.WebPushSender;
import io.periscope.entity.Asks;
import io.periscope.json.Json;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.llm.Judged;
import io.periscope.llm.JudgedItem;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.OpenAiCompatibleClient;
import io.periscope.llm.PooledModel;
import io.periscope.llm.VerdictPrompt;
import io.periscope.net.SafeHttp;
import io.periscope.notify.AdminAlerts;
import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.notify.Notifier;
import io.periscope.notify.NotifyMeters;
import io.periscope.notify.RepeatedAlerts;
import io.periscope.notify.TelegramSender;
import io.periscope.notify.TelegramSettings;
import io.periscope.persistence.JournalSchema;
import io.periscope.runtime.LocalEntities;
import io.periscope.source.ArticleExtractor;
import io.periscope.source.CollectionBudget;
import io.periscope.source.CollectionLimits;
import io.periscope.source.FeedCollector;
import io.periscope.source.Item;
import io.periscope.source.PageCollector;
import io.periscope.source.PageSnapshot;
import io.periscope.testing.FakePushService;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import io.periscope.trust.TrustRule;
import io.periscope.trust.TrustRules;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The pipeline with its real parts against one loopback server playing every upstream: a feed,
 * article pages, an OpenAI-compatible model, a webhook receiver and the Telegram Bot API.
 */
public class PipelineTest {
  private static ActorTestKit testKit;
  private static LocalEntities entities;
  private static Asks asks;
  private static KeyPools keyPools;
  private static final VapidKeys VAPID = VapidKeys.generate();

  private final MockWebServer upstream = new MockWebServer();

  /** What the model answers next: a verdict as JSON, or null for an HTTP 500. */
  private final AtomicReference<String> verdict = new AtomicReference<>();

  /** The page {@code /pricing} serves. */
  private final AtomicReference<String> pricing = new AtomicReference<>();

  private final ConcurrentLinkedQueue<RecordedRequest> seen = new ConcurrentLinkedQueue<>();

  /** What reading the owner's trust rules gives the next run. */
  private final AtomicReference<CompletionStage<TrustRules>> rules =
      new AtomicReference<>(CompletableFuture.completedFuture(TrustRules.NONE));

  private Pipeline pipeline;
  private FeedCollector feeds;

  /** The owner's trust rules read by runs so far. */
  private final java.util.concurrent.atomic.AtomicInteger ruleReads =
      new java.util.concurrent.atomic.AtomicInteger();

  private FakePushService pushService;

  /** Each model call's usage as the pipeline reported it: {@code owner/watch calls}. */
  private final List<String> recorded = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** "Now" for the throttle of the alerts about failing watches. */
  private final MutableClock alertClock = new MutableClock(Instant.parse("2026-11-25T12:00:00Z"));

  @BeforeClass
  public static void startKeyPools() throws Exception {
    testKit = ActorTestKit.create(TestJournals.h2());
    JournalSchema.create(testKit.system());
    entities = new LocalEntities(testKit.system());
    asks = new Asks(testKit.system(), Duration.ofSeconds(10));
    keyPools =
        new KeyPools(
            entities,
            asks,
            new KeyCipher("pipeline-test-secret-of-32-bytes-or-more"),
            LoggedAlerts.create(),
            Clock.systemUTC());
    keyPools
        .seed(KeyPoolEntity.MODEL, List.of("sk-pipeline-test-0001"))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  @AfterClass
  public static void stopKeyPools() {
    testKit.shutdownTestKit();
  }

  @Before
  public void start() throws Exception {
    upstream.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            seen.add(request);
            String path = request.getPath();
            String feed = feeds(path);
            if (feed != null)
              return new MockResponse()
                  .setHeader("Content-Type", "application/rss+xml")
                  .setBody(feed);
            if (path.equals("/pricing"))
              return new MockResponse()
                  .setHeader("Content-Type", "text/html")
                  .setBody(pricing.get());
            if (path.equals("/blog/"))
              return new MockResponse()
                  .setHeader("Content-Type", "text/html")
                  .setBody(
                      "<html><head><link rel=\"alternate\" type=\"application/rss+xml\""
                          + " href=\"/feed.xml\"></head><body>A blog</body></html>");
            if (path.startsWith("/articles/")
                || path.startsWith("/elsewhere/")
                || path.startsWith("/many/"))
              return new MockResponse()
                  .setHeader("Content-Type", "text/html")
                  .setBody(
                      "<html><body><nav>menu</nav><article><p>Full text of "
                          + path
                          + ".</p></article></body></html>");
            if (path.equals("/v1/chat/completions")) {
              String answer = verdict.get();
              return answer == null
                  ? new MockResponse()
                      .setResponseCode(500)
                      .setBody("{\"error\":{\"type\":\"server_error\"}}")
                  : new MockResponse()
                      .setHeader("Content-Type", "application/json")
                      .setBody(
                          Json.text(
                              Map.of(
                                  "choices",
                                  List.of(
                                      Map.of(
                                          "message",
                                          Map.of("role", "assistant", "content", answer))),
                                  "usage",
                                  Map.of("prompt_tokens", 200, "completion_tokens", 40))));
            }
            return new MockResponse()
                .setHeader("Content-Type", "application/json")
                .setBody("{\"ok\":true}");
          }
        });
    upstream.start();
    pushService = new FakePushService();
    String base = url("");
    Config config =
        ConfigFactory.parseMap(
                Map.of(
                    "periscope.telegram.api-base-url",
                    base,
                    "periscope.telegram.bot-token",
                    "tg-token",
                    "periscope.telegram.chat-id",
                    "1001",
                    "periscope.telegram.admin-chat-id",
                    "2002",
                    "periscope.smtp.host",
                    "",
                    "periscope.smtp.port",
                    25,
                    "periscope.smtp.username",
                    "",
                    "periscope.smtp.password",
                    "",
                    "periscope.smtp.from",
                    "",
                    "periscope.rate-limits.notifications-per-owner-per-hour",
                    1000))
            .withFallback(ConfigFactory.parseMap(Map.of("periscope.pushover.api-base-url", base)));
    OkHttpClient plain = new OkHttpClient();
    SafeHttp userUrls = new SafeHttp(true);
    AdminAlerts admin = new AdminAlerts(new TelegramSender(plain, TelegramSettings.from(config)));
    feeds = new FeedCollector(userUrls);
    pipeline =
        new Pipeline(
            feeds,
            new PageCollector(
                userUrls, new CollectionBudget(CollectionLimits.DEFAULTS), Optional.empty()),
            Optional.empty(),
            new ArticleExtractor(userUrls),
            new PooledModel(
                () ->
                    CompletableFuture.completedFuture(
                        new OpenAiCompatibleClient(base + "/v1", "test-model", plain)),
                keyPools),
            keyPools,
            Notifier.create(
                config,
                plain,
                userUrls.guardedClient(),
                Runnable::run,
                Optional.of(
                    new WebPushSender(
                        entities,
                        asks,
                        new Vapid(
                            Optional.of(VAPID),
                            Optional.empty(),
                            entities,
                            asks,
                            new KeyCipher("unused-secret")),
                        pushService.trusting(userUrls.guardedClient()))),
                io.periscope.notify.WebhookSecrets.NONE,
                (owner, channels) -> CompletableFuture.completedFuture(Map.of()),
                LoggedAlerts.create(),
                new NotifyMeters(new SimpleMeterRegistry()),
                java.util.function.UnaryOperator.identity()),
            admin,
            new RepeatedAlerts(admin, alertClock, RepeatedAlerts.REPEAT_EVERY),
            owner -> {
              ruleReads.incrementAndGet();
              return rules.get();
            },
            io.periscope.llm.ModelCallMeter.UNMETERED,
            (owner, watchId) -> used -> recorded.add(owner + "/" + watchId + " " + used.calls()),
            Clock.systemUTC());
  }

  @After
  public void stop() throws Exception {
    upstream.shutdown();
    pushService.close();
  }

  /** The feed the loopback server answers at {@code path}, or null. */
  private String feeds(String path) {
    return switch (path) {
      case "/feed.xml" -> rss("articles");
      case "/same-guids.xml" -> rss("elsewhere");
      // control characters and no end: two recoveries
      case "/broken.xml" ->
          rss("articles").replace("Quarterly", "Quarterly\u0001").replace("</rss>", "");
      case "/old.xml" -> oldRss();
      case "/thousand.xml" -> thousandRss();
      // the launch again, under its own guid and with tracking
      case "/syndicated.xml" ->
          rss("articles")
              .replace("/articles/launch", "/articles/launch?utm_source=syndication")
              .replace("g-launch", "syndicated-launch")
              .replace("Quarterly note", "Other news")
              .replace("/articles/note", "/articles/other");
      case "/guidless.xml" -> guidlessRss();
      case "/no-links.xml" -> noLinksRss();
      default -> null;
    };
  }

  /** On a host name, not an address: trust rules name domains. */
  private String url(String path) {
    return "http://localhost:" + upstream.getPort() + path;
  }

  /**
   * Two undated items whose pages are under {@code /<dir>/}, with the guids every such feed has.
   */
  private String rss(String dir) {
    return "<?xml version=\"1.0\"?><rss"
        + " version=\"2.0\"><channel><title>t</title><link>http://x.org</link>"
        + "<description>d</description><item><title>Launch date set</title><link>"
        + url("/" + dir + "/launch")
        + "</link><guid>g-launch</guid>"
        + "<description>Summary of the launch</description></item>"
        + "<item><title>Quarterly note</title><link>"
        + url("/" + dir + "/note")
        + "</link><guid>g-note</guid>"
        + "<description>Summary of the note</description></item></channel></rss>";
  }

  /** The launch item, published 400 days ago. */
  private String oldRss() {
    String published =
        java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
            java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).minusDays(400));
    return "<?xml version=\"1.0\"?><rss"
        + " version=\"2.0\"><channel><title>t</title><link>http://x.org</link>"
        + "<description>d</description><item><title>Launch date set</title><link>"
        + url("/articles/launch")
        + "</link><guid>g-old-launch</guid><pubDate>"
        + published
        + "</pubDate><description>Summary of the launch</description></item></channel></rss>";
  }

  /** A feed of 1,000 undated items, each with its page under {@code /many/}. */
  private String thousandRss() {
    StringBuilder items = new StringBuilder();
    for (int i = 0; i < 1000; i++)
      items
          .append("<item><title>Item ")
          .append(i)
          .append("</title><link>")
          .append(url("/many/" + i))
          .append("</link><guid>m-")
          .append(i)
          .append("</guid></item>");
    return "<?xml version=\"1.0\"?><rss"
        + " version=\"2.0\"><channel><title>t</title><link>http://x.org</link>"
        + "<description>d</description>"
        + items
        + "</channel></rss>";
  }

  /**
   * Items without guids, whose links (one with tracking, one with an upper-case host) were their
   * identities earlier versions gave, and an item with a guid.
   */
  private String guidlessRss() {
    return "<?xml version=\"1.0\"?><rss"
        + " version=\"2.0\"><channel><title>t</title><link>http://x.org</link>"
        + "<description>d</description>"
        + "<item><title>Launch date set</title><link>"
        + url("/articles/launch?utm_source=rss&amp;utm_medium=feed")
        + "</link></item><item><title>Quarterly note</title><link>"
        + url("/articles/note").replace("localhost", "LOCALHOST")
        + "</link></item><item><title>Other</title><link>"
        + url("/articles/other")
        + "</link><guid>g-other</guid></item></channel></rss>";
  }

  /** More items than a verdict judges, none with a link. */
  private String noLinksRss() {
    StringBuilder items = new StringBuilder();
    for (int i = 0; i < VerdictPrompt.MAX_ITEMS + 5; i++)
      items
          .append("<item><title>Note ")
          .append(i)
          .append("</title><guid>n-")
          .append(i)
          .append("</guid><description>Note ")
          .append(i)
          .append("</description></item>");
    return "<?xml version=\"1.0\"?><rss"
        + " version=\"2.0\"><channel><title>t</title><link>http://x.org</link>"
        + "<description>d</description>"
        + items
        + "</channel></rss>";
  }

  private Watch watch(Double weakThreshold) {
    return new Watch(
        "acme",
        "alice",
        "Acme",
        List.of(new WatchSource(WatchSource.RSS, url("/feed.xml"), "official", null)),
        "0 0 1 1 *",
        "Acme sets a launch date",
        List.of("webhook:" + url("/hook")),
        0.8,
        weakThreshold,
        true,
        "UTC");
  }

  private String answer(boolean met, double confidence) {
    return Json.text(
        Map.of(
            "reasoning",
            "r",
            "met",
            met,
            "confidence",
            confidence,
            "summary",
            "Acme set a date.",
            "evidence",
            List.of(Map.of("url", url("/articles/launch"), "quote", "launch"))));
  }

  /**
   * A watch polling a feed that does not change, run by its entity as a schedule runs it: after its
   * first run (which sets the feed's undated items aside as there before it looked), each run is
   * one request of the feed and one event, and nothing else: no parse of the feed (so no item of it
   * is read or cleaned of HTML), no read of the owner's trust rules, no page fetched, no model
   * call, no snapshot.
   */
  @Test
  public void aNothingNewRunIsOneFeedRequestAndOneEventAndNothingElse() throws Exception {
    Watch watch =
        TestWatches.onSources(
            "alice",
            "quiet-" + java.util.UUID.randomUUID(),
            new WatchSource(WatchSource.RSS, url("/feed.xml"), "official", null));
    String entityId = io.periscope.watch.WatchEntity.entityId("alice", watch.id());
    var entity =
        testKit.spawn(io.periscope.watch.WatchEntity.create(entityId, pipeline, Clock.systemUTC()));
    TestWatches.create(testKit, entity, watch);
    RunRecord first = TestWatches.run(testKit, entity);
    assertEquals(RunRecord.NOTHING_NEW, first.outcome());
    assertEquals("the feed's items were there before the watch looked", 2, first.setAside());
    long parses = feeds.parses();
    int reads = ruleReads.get();
    long events = journalEvents(entityId);
    seen.clear();

    int runs = 20;
    for (int i = 0; i < runs; i++) {
      RunRecord r = TestWatches.run(testKit, entity);
      assertEquals(RunRecord.NOTHING_NEW, r.outcome());
      assertEquals("its items are counted all the same", 2, r.collected());
      assertEquals(new RunRecord.Collection(0, 2, 0, 0), r.collection());
      assertEquals(0, r.setAside());
    }
    assertEquals("one request a run: the feed's", runs, seen.size());
    assertEquals(runs, requestsTo("/feed.xml"));
    assertEquals("the same bytes are not parsed again", parses, feeds.parses());
    assertEquals("no trust rules read for items all seen", reads, ruleReads.get());
    assertEquals("one event a run: its record", events + runs, journalEvents(entityId));
    assertEquals("no snapshot", 0, snapshots(entityId));
    assertTrue("no model call", recorded.isEmpty());
  }

  /** The events written for the entity so far. */
  private static long journalEvents(String entityId) throws Exception {
    return new io.periscope.persistence.JournalReads(testKit.system())
        .lastSequenceNr(io.periscope.watch.WatchEntity.TYPE_KEY.name(), entityId)
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  /** The snapshots written of the entity so far. */
  private static long snapshots(String entityId) throws Exception {
    Config db =
        testKit
            .system()
            .settings()
            .config()
            .getConfig("pekko-persistence-jdbc.shared-databases.periscope.db");
    try (var c =
            java.sql.DriverManager.getConnection(
                db.getString("url"), db.getString("user"), db.getString("password"));
        var s =
            c.prepareStatement("SELECT COUNT(*) FROM \"snapshot\" WHERE \"persistence_id\" = ?")) {
      s.setString(1, io.periscope.watch.WatchEntity.TYPE_KEY.name() + "|" + entityId);
      try (var r = s.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    }
  }

  @Test
  public void theFaultsAFeedWasReadPastAreCountedInTheRecord() throws Exception {
    verdict.set(answer(false, 0.1));
    Watch broken =
        new Watch(
            "broken",
            "alice",
            "Broken",
            List.of(new WatchSource(WatchSource.RSS, url("/broken.xml"), null, null)),
            "0 0 1 1 *",
            "Acme sets a launch date",
            List.of(),
            0.8,
            null,
            true,
            "UTC");
    RunRecord r = run(broken, Set.of()).record();
    assertEquals(2, r.collected());
    assertEquals(new RunRecord.Collection(2, 2, 2, 0, 2), r.collection());
  }

  @Test
  public void aSitesAddressHasTheFeedItsPageNamesCollectedAndTheRecordSaysSo() throws Exception {
    verdict.set(answer(false, 0.1));
    String site = url("/blog/");
    RunRecord r =
        run(watchOf(null, new WatchSource(WatchSource.RSS, site, null, null)), Set.of()).record();
    assertEquals(2, r.collected());
    assertEquals(List.of(), r.sourceErrors());
    assertEquals(
        List.of(new RunRecord.FeedFound(site, url("/feed.xml"))), r.collection().feedsFound());
  }

  @Test
  public void onlyTheJudgedItemsPagesAreFetchedAndTheRestIsCountedAsLeftUnjudged()
      throws Exception {
    verdict.set(answer(false, 0.1));
    Watch busy = watchOf(null, new WatchSource(WatchSource.RSS, url("/thousand.xml"), null, null));
    RunPipeline.Outcome outcome = run(busy, Set.of());
    RunRecord r = outcome.record();
    int kept = FeedCollector.MAX_ITEMS_PER_FEED;
    int judged = VerdictPrompt.MAX_ITEMS;
    assertEquals(RunRecord.NO_MATCH, r.outcome());
    assertEquals(kept, r.fresh());
    assertEquals("pages fetched: only the judged items'", judged, requestsTo("/many/"));
    assertEquals(new RunRecord.Collection(judged, kept, judged, 0), r.collection());
    assertEquals("left unjudged", kept - judged, r.trimmed().itemsDropped());
    assertEquals(judged, r.judged().items().size());
    assertEquals(
        "past the bound, listed by key up to a bound of their own",
        Math.min(kept - judged, Judged.MAX_SET_ASIDE),
        r.judged().setAside().size());
    assertEquals(
        new Judged.SetAside("rss:" + url("/thousand.xml") + " m-" + judged, Judged.PAST_BOUND),
        r.judged().setAside().get(0));
    List<String> expected = new java.util.ArrayList<>();
    for (int i = 0; i < judged; i++) expected.add("rss:" + url("/thousand.xml") + " m-" + i);
    assertEquals("the newest, judged, are seen; the rest wait", expected, outcome.newlySeen());
    seen.clear();
    RunPipeline.Outcome next = run(busy, Set.copyOf(outcome.newlySeen()));
    assertEquals(judged, requestsTo("/many/"));
    assertEquals("rss:" + url("/thousand.xml") + " m-" + judged, next.newlySeen().get(0));
  }

  /**
   * A tarpit: every connection gets a byte of an answer that never ends, every 200 ms, so no read
   * timeout fires.
   */
  private static Thread trickle(java.net.ServerSocket server) {
    Thread accepting =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try {
                  java.net.Socket socket = server.accept();
                  Thread writing =
                      new Thread(
                          () -> {
                            try (socket) {
                              socket.getOutputStream().write("HTTP/1.1 200 OK\r\n".getBytes());
                              while (true) {
                                socket.getOutputStream().write('X');
                                socket.getOutputStream().flush();
                                Thread.sleep(200);
                              }
                            } catch (Exception e) {
                              // the client gave up
                            }
                          });
                  writing.setDaemon(true);
                  writing.start();
                } catch (java.io.IOException e) {
                  return;
                }
              }
            });
    accepting.setDaemon(true);
    accepting.start();
    return accepting;
  }

  @Test
  public void aRunAgainstTarpitsEndsAtItsDeadlineAndItsSlotGoesToTheNextRun() throws Exception {
    java.net.InetAddress loopback = java.net.InetAddress.getLoopbackAddress();
    try (java.net.ServerSocket trickling = new java.net.ServerSocket(0, 50, loopback);
        java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, loopback)) {
      trickle(trickling);
      // silent is never accepted from: connections complete in its backlog, nothing is answered
      Watch tarpits =
          watchOf(
              null,
              new WatchSource(
                  WatchSource.RSS,
                  "http://localhost:" + trickling.getLocalPort() + "/feed.xml",
                  null,
                  null),
              new WatchSource(
                  WatchSource.RSS,
                  "http://localhost:" + silent.getLocalPort() + "/feed.xml",
                  null,
                  null));
      RunSlots oneSlot = new RunSlots(pipeline, 1, Duration.ofSeconds(2), Runnable::run);
      Map<String, Instant> baselines = new java.util.HashMap<>();
      java.util.stream.Stream.concat(tarpits.sources().stream(), watch(null).sources().stream())
          .forEach(src -> baselines.put(src.key(), Instant.EPOCH));
      RunPipeline.Memory memory = new RunPipeline.Memory(Set.of(), baselines, Instant.now());
      verdict.set(answer(true, 0.9));
      long began = System.nanoTime();
      CompletableFuture<RunPipeline.Outcome> stuck =
          oneSlot
              .run(tarpits, memory, RunRecord.TRIGGER_MANUAL, Instant.now())
              .toCompletableFuture();
      CompletableFuture<RunPipeline.Outcome> next =
          oneSlot
              .run(watch(null), memory, RunRecord.TRIGGER_MANUAL, Instant.now())
              .toCompletableFuture();
      RunRecord ended = stuck.get(10, TimeUnit.SECONDS).record();
      long endedAfter = System.nanoTime() - began;
      assertEquals(RunRecord.ERROR, ended.outcome());
      assertEquals(
          "the run's deadline of 2s (RUN_DEADLINE) passed; the run was ended", ended.error());
      assertTrue(
          "ended at its deadline, not at the upstreams' timeouts: "
              + endedAfter / 1_000_000
              + " ms",
          endedAfter < Duration.ofSeconds(4).toNanos());
      assertTrue(stuck.join().newlySeen().isEmpty());
      RunRecord after = next.get(10, TimeUnit.SECONDS).record();
      assertEquals("the next run had the slot", RunRecord.ALERT, after.outcome());
    }
  }

  @Test
  public void undatedFeedItemsKeepTheirPlaceInTheFeed() {
    Instant noon = Instant.parse("2024-01-02T12:00:00Z");
    Item dated = item("a", "feed-1", noon);
    Item undatedBelow = item("b", "feed-1", null);
    Item undatedTop = item("c", "feed-2", null);
    Item older = item("d", "feed-2", noon.minusSeconds(3600));
    Item newer = item("e", "feed-3", noon.plusSeconds(60));
    Item search = new Item("f", "f", null, null, null, "search", "q", null, List.of());
    assertEquals(
        List.of(undatedTop, newer, dated, undatedBelow, older, search),
        RunItems.newestFirst(List.of(dated, undatedBelow, undatedTop, older, search, newer)));
  }

  private static Item item(String id, String feed, Instant published) {
    return new Item(
        id, id, null, null, published, FeedCollector.SOURCE_TYPE, feed, null, List.of());
  }

  /** A run after the watch's first: every source took its baseline long ago. */
  private RunPipeline.Outcome run(Watch watch, Set<String> alreadySeen) throws Exception {
    Map<String, Instant> baselines = new java.util.HashMap<>();
    watch.sources().forEach(s -> baselines.put(s.key(), Instant.EPOCH));
    return run(watch, new RunPipeline.Memory(alreadySeen, baselines, Instant.now()));
  }

  private RunPipeline.Outcome run(Watch watch, RunPipeline.Memory memory) throws Exception {
    return pipeline
        .run(watch, memory, RunRecord.TRIGGER_MANUAL, Instant.now())
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  private long requestsTo(String path) {
    return seen.stream().filter(r -> r.getPath().startsWith(path)).count();
  }

  @Test
  public void aMetConditionAlertsTheChannelsAndMarksTheJudgedItemsSeen() throws Exception {
    verdict.set(answer(true, 0.9));
    RunPipeline.Outcome outcome = run(watch(null), Set.of());
    RunRecord r = outcome.record();
    assertEquals(RunRecord.ALERT, r.outcome());
    assertEquals(2, r.collected());
    assertEquals(2, r.fresh());
    assertEquals(new RunRecord.Collection(2, 2, 2, 0), r.collection());
    assertEquals("official", r.trustTier());
    assertEquals(List.of("openai:test-model"), r.models());
    assertEquals(
        Set.of("rss:" + url("/feed.xml") + " g-launch", "rss:" + url("/feed.xml") + " g-note"),
        Set.copyOf(outcome.newlySeen()));
    assertEquals(
        "confirmed: met at or above threshold, 1 cited item(s), strongest trust official",
        r.decision());
    assertEquals("the alert waits for the entity to record the run", 0, requestsTo("/hook"));
    assertEquals("the alert is its run's", r.runId(), outcome.alert().alert().runId());
    assertEquals(
        List.of(Delivery.delivered("webhook:" + url("/hook"))),
        pipeline
            .deliver("webhook:" + url("/hook"), outcome.alert().alert())
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS));
    RecordedRequest hook =
        seen.stream().filter(q -> q.getPath().equals("/hook")).findFirst().orElseThrow();
    assertTrue(hook.getBody().readUtf8().contains("/articles/launch"));
    assertTrue(
        "the model was shown the extracted text",
        seen.stream()
            .filter(q -> q.getPath().equals("/v1/chat/completions"))
            .findFirst()
            .orElseThrow()
            .getBody()
            .readUtf8()
            .contains("Full text of /articles/launch"));
  }

  @Test
  public void theRecordKeepsWhatWasJudgedAndWhatTheModelCallTook() throws Exception {
    verdict.set(answer(true, 0.9));
    RunRecord r = run(watch(null), Set.of()).record();
    Judged judged = r.judged();
    assertEquals(
        List.of(url("/articles/launch"), url("/articles/note")),
        judged.items().stream().map(JudgedItem::url).toList());
    JudgedItem launch = judged.items().get(0);
    assertEquals("rss:" + url("/feed.xml") + " g-launch", launch.key());
    assertEquals("Launch date set", launch.title());
    assertEquals("rss:" + url("/feed.xml"), launch.source());
    assertEquals("official", launch.trust());
    assertEquals("the text the prompt carried", "Full text of /articles/launch.", launch.excerpt());
    assertTrue("the verdict cites the launch", launch.cited());
    assertFalse("and not the note", judged.items().get(1).cited());
    assertEquals(List.of(), judged.setAside());
    assertEquals(new ModelUsage(1, 200, 0, 40, null), r.usage());
    assertEquals("the ledger heard of the call", List.of("alice/acme 1"), recorded);
  }

  @Test
  public void nothingFreshMeansNoModelCall() throws Exception {
    verdict.set(answer(true, 0.9));
    RunRecord r = run(watch(null), Set.of("g-launch", "g-note")).record();
    assertEquals(RunRecord.NOTHING_NEW, r.outcome());
    assertEquals(0, requestsTo("/v1/chat/completions"));
    assertEquals(0, requestsTo("/articles/"));
  }

  @Test
  public void betweenTheThresholdsIsAWeakAlertAndBelowBothIsNoMatch() throws Exception {
    verdict.set(answer(true, 0.6));
    assertEquals(RunRecord.WEAK_ALERT, run(watch(0.5), Set.of()).record().outcome());
    RunPipeline.Outcome without = run(watch(null), Set.of());
    assertEquals(RunRecord.NO_MATCH, without.record().outcome());
    assertNull("no match sends nothing", without.alert());
  }

  @Test
  public void aFailingModelIsAnErrorThatLeavesTheItemsUnseenAndAlertsTheAdminChat()
      throws Exception {
    verdict.set(null);
    RunPipeline.Outcome outcome = run(watch(null), Set.of());
    assertEquals(RunRecord.ERROR, outcome.record().outcome());
    assertTrue(outcome.newlySeen().isEmpty());
    assertNull(outcome.record().confidence());
    assertEquals("the model consulted", List.of("openai:test-model"), outcome.record().models());
    // The admin alert is best effort and not awaited by the run: give it a moment to arrive.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (requestsTo("/bottg-token/sendMessage") == 0 && System.nanoTime() < deadline)
      Thread.sleep(20);
    RecordedRequest alert =
        seen.stream().filter(q -> q.getPath().endsWith("/sendMessage")).findFirst().orElseThrow();
    String body = alert.getBody().readUtf8();
    assertTrue(body, body.contains("\"2002\"") && body.contains("\u26a0"));
  }

  private RunRecord trial(Watch watch, String usageWatch) throws Exception {
    Map<String, Instant> baselines = new java.util.HashMap<>();
    watch.sources().forEach(s -> baselines.put(s.key(), Instant.EPOCH));
    return pipeline
        .trial(watch, new RunPipeline.Memory(Set.of(), baselines, Instant.now()), usageWatch)
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  @Test
  public void aDryRunJudgesAsARunDoesAndKeepsItsUsageForTheWatchGiven() throws Exception {
    verdict.set(answer(true, 0.9));
    RunRecord r = trial(watch(null), null);
    assertEquals(RunRecord.ALERT, r.outcome());
    assertEquals(RunRecord.TRIGGER_TEST, r.trigger());
    assertEquals(
        "confirmed: met at or above threshold, 1 cited item(s), strongest trust official",
        r.decision());
    assertEquals(2, r.judged().items().size());
    assertEquals(new ModelUsage(1, 200, 0, 40, null), r.usage());
    assertEquals(
        "an unsaved watch's usage is its owner's alone", List.of("alice/null 1"), recorded);
    Thread.sleep(200);
    assertEquals("nothing is sent", 0, requestsTo("/hook"));
  }

  @Test
  public void aDryRunWhoseModelFailsIsAnErrorTheOperatorIsNotToldOf() throws Exception {
    verdict.set(null);
    RunRecord r = trial(watch(null), "acme");
    assertEquals(RunRecord.ERROR, r.outcome());
    Thread.sleep(500); // a real run's admin alert arrives well within this
    assertEquals(0, requestsTo("/bottg-token/sendMessage"));
  }

  @Test
  public void aFailingSourceIsASourceErrorAndTheRunGoesOn() throws Exception {
    verdict.set(answer(false, 0.1));
    Watch twoSources =
        TestWatches.onSources(
            "alice",
            "acme",
            new WatchSource(WatchSource.RSS, url("/feed.xml"), null, null),
            new WatchSource(WatchSource.RSS, url("/missing.xml"), null, null));
    RunRecord r = run(twoSources, Set.of()).record();
    assertEquals(RunRecord.NO_MATCH, r.outcome());
    assertEquals(2, r.collected());
    assertEquals(1, r.sourceErrors().size());
  }

  @Test
  public void theOwnersRuleForTheCitedDomainOutranksTheSourcesTrust() throws Exception {
    verdict.set(answer(true, 0.9));
    rules.set(
        CompletableFuture.completedFuture(
            TrustRules.of(
                List.of(
                    new TrustRule("localhost", "established"),
                    new TrustRule("example.org", "unverified")))));
    RunRecord r = run(watch(null), Set.of()).record();
    assertEquals(RunRecord.ALERT, r.outcome());
    assertEquals(
        "the source says official, the rule for the cited item's domain says established",
        "established",
        r.trustTier());
    String prompt =
        seen.stream()
            .filter(q -> q.getPath().equals("/v1/chat/completions"))
            .findFirst()
            .orElseThrow()
            .getBody()
            .readUtf8();
    assertTrue("the model is shown the rule's tier", prompt.contains("Source trust: established"));
    assertFalse(prompt.contains("Source trust: official"));
  }

  @Test
  public void aRunWhoseTrustRulesCannotBeReadGoesOnWithTheSourcesTrust() throws Exception {
    verdict.set(answer(true, 0.9));
    rules.set(
        CompletableFuture.failedFuture(
            new java.util.concurrent.TimeoutException("the entity did not answer")));
    RunRecord r = run(watch(null), Set.of()).record();
    assertEquals(RunRecord.ALERT, r.outcome());
    assertEquals("official", r.trustTier());
  }

  private String register(String owner, FakePushService.Subscriber subscriber) throws Exception {
    DeviceValidator.Subscription s =
        DeviceValidator.validate(Json.MAPPER.readTree(subscriber.registration("phone")));
    return asks.<DevicesEntity.Command, DevicesEntity.Registered>ask(
            entities.devices(owner), r -> new DevicesEntity.Register(s, java.time.Instant.now(), r))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .device()
        .id();
  }

  @Test
  public void anAlertIsPushedToEachOfTheOwnersDevicesAndAGoneOneIsRemoved() throws Exception {
    verdict.set(answer(true, 0.9));
    String owner = "pusher-" + java.util.UUID.randomUUID();
    FakePushService.Subscriber phone = pushService.subscribe(201);
    FakePushService.Subscriber oldPhone = pushService.subscribe(410);
    String phoneId = register(owner, phone);
    String oldPhoneId = register(owner, oldPhone);
    Watch pushed =
        new Watch(
            "acme",
            owner,
            "Acme",
            List.of(new WatchSource(WatchSource.RSS, url("/feed.xml"), null, null)),
            "0 0 1 1 *",
            "Acme sets a launch date",
            List.of("push", "webhook:" + url("/hook")),
            0.8,
            null,
            true,
            "UTC");

    RunPipeline.Outcome outcome = run(pushed, Set.of());
    assertEquals(RunRecord.ALERT, outcome.record().outcome());
    List<Delivery> sent = new java.util.ArrayList<>();
    for (String channel : outcome.alert().channels())
      sent.addAll(
          pipeline
              .deliver(channel, outcome.alert().alert())
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS));

    assertEquals(
        List.of(
            new Delivery("push", phoneId, true, null),
            new Delivery(
                "push",
                oldPhoneId,
                false,
                "HTTP 410: the subscription is gone, the device was removed"),
            Delivery.delivered("webhook:" + url("/hook"))),
        sent);
    String payload = FakePushService.decrypt(pushService.receivedBy(phone).get(0), phone);
    assertEquals("Acme set a date.", Json.MAPPER.readTree(payload).get("summary").asText());
    FakePushService.verifiedVapid(pushService.receivedBy(phone).get(0), VAPID.publicKey());
    assertEquals(
        List.of(phoneId),
        asks
            .<DevicesEntity.Command, DevicesEntity.Devices>ask(
                entities.devices(owner), DevicesEntity.GetDevices::new)
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS)
            .devices()
            .stream()
            .map(io.periscope.devices.Device::id)
            .toList());
  }

  private Watch watchOf(Double weakThreshold, WatchSource... sources) {
    return new Watch(
        "acme",
        "alice",
        "Acme",
        List.of(sources),
        "0 0 1 1 *",
        "Acme sets a launch date",
        List.of("webhook:" + url("/hook")),
        0.8,
        weakThreshold,
        true,
        "UTC");
  }

  private static String pricingPage(String team) {
    return "<html><head><title>Acme pricing</title></head><body><nav>Menu</nav><main>"
        + "<h2>Plans</h2><table id='plans'><tr><td>Basic</td><td>$10</td></tr>"
        + "<tr><td>Team</td><td>"
        + team
        + "</td></tr></table><p>Updated <time>"
        + System.nanoTime()
        + "</time></p></main></body></html>";
  }

  @Test
  public void aPageSourceTakesItsBaselineThenHasItsChangeJudgedInContext() throws Exception {
    WatchSource page =
        new WatchSource(
            WatchSource.PAGE, url("/pricing"), "official", null, "main", List.of("time"));
    Watch watch = watchOf(null, page);
    pricing.set(pricingPage("$49"));
    RunPipeline.Outcome first =
        run(watch, new RunPipeline.Memory(Set.of(), Map.of(), Instant.now()));
    assertEquals("the baseline alerts on nothing", RunRecord.NOTHING_NEW, first.record().outcome());
    assertEquals(0, requestsTo("/v1/chat/completions"));
    PageSnapshot baseline = first.pages().get(page.key());
    assertTrue(baseline.blocks().contains(new PageSnapshot.Block("Team | $49", "plans")));

    // the same page again, its timestamp (ignored) rotated: nothing new, no model call
    pricing.set(pricingPage("$49"));
    RunPipeline.Outcome same =
        run(
            watch,
            new RunPipeline.Memory(Set.of(), first.baselined(), Instant.now(), first.pages()));
    assertEquals(RunRecord.NOTHING_NEW, same.record().outcome());
    assertEquals(0, requestsTo("/v1/chat/completions"));

    pricing.set(pricingPage("$59"));
    String cited = url("/pricing") + "#plans";
    verdict.set(answerCiting(true, 0.9, cited));
    RunPipeline.Outcome changed =
        run(
            watch,
            new RunPipeline.Memory(Set.of(), first.baselined(), Instant.now(), first.pages()));
    assertEquals(RunRecord.ALERT, changed.record().outcome());
    assertEquals(1, changed.record().fresh());
    assertEquals("a page's change is not fetched again", 1, requestsTo("/pricing") - 2);
    String prompt =
        seen.stream()
            .filter(q -> q.getPath().equals("/v1/chat/completions"))
            .findFirst()
            .orElseThrow()
            .getBody()
            .readUtf8();
    assertTrue(prompt, prompt.contains("Before: Team | $49 Now: Team | $59"));
    assertTrue(prompt, prompt.contains(cited));
    assertEquals(1, changed.newlySeen().size());
    assertTrue(changed.newlySeen().get(0).startsWith("page:" + url("/pricing") + " page:"));
    assertTrue(
        changed
            .pages()
            .get(page.key())
            .blocks()
            .contains(new PageSnapshot.Block("Team | $59", "plans")));
  }

  @Test
  public void aPageChangeLeftUnjudgedKeepsTheOldSnapshotSoItComesAgain() throws Exception {
    WatchSource page =
        new WatchSource(WatchSource.PAGE, url("/pricing"), null, null, null, List.of("time"));
    Watch watch = watchOf(null, page);
    pricing.set(pricingPage("$49"));
    RunPipeline.Outcome first =
        run(watch, new RunPipeline.Memory(Set.of(), Map.of(), Instant.now()));
    pricing.set(pricingPage("$59"));
    verdict.set(null); // the model fails
    RunPipeline.Memory memory =
        new RunPipeline.Memory(Set.of(), first.baselined(), Instant.now(), first.pages());
    RunPipeline.Outcome failed = run(watch, memory);
    assertEquals(RunRecord.ERROR, failed.record().outcome());
    assertTrue(failed.pages() == null || !failed.pages().containsKey(page.key()));
    verdict.set(answerCiting(false, 0.1, url("/pricing")));
    RunPipeline.Outcome again = run(watch, memory);
    assertEquals(RunRecord.NO_MATCH, again.record().outcome());
    assertEquals(1, again.record().fresh());
  }

  private String answerCiting(boolean met, double confidence, String... urls) {
    return Json.text(
        Map.of(
            "reasoning",
            "r",
            "met",
            met,
            "confidence",
            confidence,
            "summary",
            "Acme set a date.",
            "evidence",
            java.util.Arrays.stream(urls).map(u -> Map.of("url", u, "quote", "launch")).toList()));
  }

  @Test
  public void aNewWatchsFirstRunSetsAsideTheOldNewsOfItsFeed() throws Exception {
    verdict.set(answer(true, 0.95));
    Watch watch = watchOf(0.5, new WatchSource(WatchSource.RSS, url("/old.xml"), "official", null));
    Instant created = Instant.now();
    RunPipeline.Outcome first = run(watch, new RunPipeline.Memory(Set.of(), Map.of(), created));
    RunRecord r = first.record();
    assertEquals("a 400-day-old item is not news", RunRecord.NOTHING_NEW, r.outcome());
    assertEquals(1, r.setAside());
    assertNull(first.alert());
    assertEquals(0, requestsTo("/v1/chat/completions"));
    assertEquals(List.of("rss:" + url("/old.xml") + " g-old-launch"), first.newlySeen());
    assertEquals(
        "nothing put before the model, the old news listed by key",
        new Judged(
            List.of(),
            List.of(
                new Judged.SetAside("rss:" + url("/old.xml") + " g-old-launch", Judged.OLD_NEWS))),
        r.judged());
    assertEquals(ModelUsage.NONE, r.usage());
    assertEquals(Map.of("rss:" + url("/old.xml"), created), first.baselined());
  }

  @Test
  public void recencyDaysAppliesToFeedsOnEveryRun() throws Exception {
    verdict.set(answer(true, 0.95));
    // a baseline older than the item, so only recencyDays can set it aside
    WatchSource feed = new WatchSource(WatchSource.RSS, url("/old.xml"), "official", 30);
    RunPipeline.Memory later =
        new RunPipeline.Memory(
            Set.of(),
            Map.of(feed.key(), Instant.now().minus(Duration.ofDays(1000))),
            Instant.now());
    RunRecord r = run(watchOf(null, feed), later).record();
    assertEquals(RunRecord.NOTHING_NEW, r.outcome());
    assertEquals(1, r.setAside());
    assertEquals(0, requestsTo("/v1/chat/completions"));
  }

  @Test
  public void undatedItemsAtTheBaselineAreSetAsideAndLaterOnesJudged() throws Exception {
    verdict.set(answer(false, 0.1));
    WatchSource feed = new WatchSource(WatchSource.RSS, url("/feed.xml"), null, null);
    RunPipeline.Outcome first =
        run(watchOf(null, feed), new RunPipeline.Memory(Set.of(), Map.of(), Instant.now()));
    assertEquals(RunRecord.NOTHING_NEW, first.record().outcome());
    assertEquals(2, first.record().setAside());
    // the same feed once it has a baseline: an undated item not seen then is new
    RunRecord later =
        run(
                watchOf(null, feed),
                new RunPipeline.Memory(
                    Set.of(first.newlySeen().get(0)), first.baselined(), Instant.now()))
            .record();
    assertEquals(RunRecord.NO_MATCH, later.outcome());
    assertEquals(1, later.fresh());
  }

  @Test
  public void aMetVerdictCitingNothingIsNoConfirmedAlert() throws Exception {
    verdict.set(answerCiting(true, 0.95));
    RunPipeline.Outcome weak = run(watch(0.5), Set.of());
    assertEquals(RunRecord.WEAK_ALERT, weak.record().outcome());
    assertEquals(
        "weak, not confirmed: no cited item among this run's judged items",
        weak.record().decision());
    assertEquals(RunRecord.NO_MATCH, run(watch(null), Set.of()).record().outcome());
    // citations of items this run did not judge are dropped: the same
    verdict.set(answerCiting(true, 0.95, "https://elsewhere.example/made-up"));
    assertEquals(RunRecord.WEAK_ALERT, run(watch(0.5), Set.of()).record().outcome());
  }

  @Test
  public void aCommunitySourceConfirmsOnlyWithASecondDomain() throws Exception {
    Watch community =
        watchOf(0.5, new WatchSource(WatchSource.RSS, url("/feed.xml"), "community", null));
    verdict.set(answerCiting(true, 0.95, url("/articles/launch")));
    RunRecord one = run(community, Set.of()).record();
    assertEquals(RunRecord.WEAK_ALERT, one.outcome());
    assertEquals(
        "weak, not confirmed: the strongest cited trust is community and only one domain is cited",
        one.decision());
    rules.set(
        CompletableFuture.completedFuture(
            TrustRules.of(List.of(new TrustRule("localhost", "established")))));
    assertEquals(
        "a cited item at established confirms",
        RunRecord.ALERT,
        run(community, Set.of()).record().outcome());
  }

  @Test
  public void twoFeedsWithTheSameGuidsKeepTheirItemsApart() throws Exception {
    verdict.set(answer(false, 0.1));
    Watch two =
        watchOf(
            null,
            new WatchSource(WatchSource.RSS, url("/feed.xml"), null, null),
            new WatchSource(WatchSource.RSS, url("/same-guids.xml"), null, null));
    RunPipeline.Outcome both = run(two, Set.of());
    assertEquals(4, both.record().fresh());
    assertEquals(4, Set.copyOf(both.newlySeen()).size());
    // the first feed's items seen: the second's are still news
    Watch first = watchOf(null, new WatchSource(WatchSource.RSS, url("/feed.xml"), null, null));
    RunPipeline.Outcome judged = run(first, Set.of());
    RunRecord r = run(two, Set.copyOf(judged.newlySeen())).record();
    assertEquals(2, r.fresh());
  }

  @Test
  public void exactlyTheJudgedItemsAreMarkedSeenAlsoWithoutLinks() throws Exception {
    verdict.set(answer(false, 0.1));
    RunPipeline.Outcome outcome =
        run(
            watchOf(null, new WatchSource(WatchSource.RSS, url("/no-links.xml"), null, null)),
            Set.of());
    assertEquals(VerdictPrompt.MAX_ITEMS + 5, outcome.record().fresh());
    assertEquals(VerdictPrompt.MAX_ITEMS, Set.copyOf(outcome.newlySeen()).size());
  }

  @Test
  public void aModelOutageOverFiftyRunsSendsABoundedNumberOfAdminAlerts() throws Exception {
    verdict.set(null);
    Watch watch = watch(null);
    for (int i = 0; i < 50; i++) {
      assertEquals(RunRecord.ERROR, run(watch, Set.of()).record().outcome());
      if (i == 25) alertClock.set(alertClock.instant().plus(RepeatedAlerts.REPEAT_EVERY));
    }
    verdict.set(answer(false, 0.1));
    assertEquals(RunRecord.NO_MATCH, run(watch, Set.of()).record().outcome());
    List<String> sent = adminMessages(3);
    assertEquals("the first, one summary of the repeats, the recovery", 3, sent.size());
    assertTrue(sent.get(1), sent.get(1).contains("more time(s) since"));
    assertTrue(sent.get(2), sent.get(2).contains("recovered"));
  }

  private static Alert alertOf(String owner, String watchId, String runId) {
    return new Alert(
        owner,
        watchId,
        watchId,
        Alert.Strength.CONFIRMED,
        0.9,
        "met",
        List.of(),
        "c",
        Instant.now(),
        runId);
  }

  /**
   * The admin chat's messages once {@code expected} arrived (best effort, not awaited by what sent
   * them), and a while more for any extra one.
   */
  private List<String> adminMessages(int expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (requestsTo("/bottg-token/sendMessage") < expected && System.nanoTime() < deadline)
      Thread.sleep(20);
    Thread.sleep(300);
    return seen.stream()
        .filter(q -> q.getPath().endsWith("/sendMessage"))
        .map(q -> q.getBody().clone().readUtf8())
        .toList();
  }

  @Test
  public void aDeadChannelOnManyWatchesSendsOneDeliveryFailedAlertAnHourNotOnePerDelivery()
      throws Exception {
    String dead = "webhook:https://hooks.example.org/dead";
    for (int i = 0; i < 20; i++)
      pipeline.deliveryFailed(alertOf("alice", "watch-" + (i % 5), "run-" + i), dead, "HTTP 410");
    // another owner's use of the same channel, and another channel of alice, are their own
    pipeline.deliveryFailed(alertOf("bob", "w", "r"), dead, "HTTP 410");
    pipeline.deliveryFailed(
        alertOf("alice", "w", "r2"), "ntfy:https://ntfy.example.org/t", "HTTP 403");
    alertClock.set(alertClock.instant().plus(RepeatedAlerts.REPEAT_EVERY));
    pipeline.deliveryFailed(alertOf("alice", "watch-3", "run-late"), dead, "HTTP 410");
    List<String> sent = adminMessages(4);
    assertEquals(
        "alice's dead webhook once, bob's, alice's ntfy, one summary: " + sent, 4, sent.size());
    assertTrue(sent.stream().allMatch(t -> t.contains("delivery-failed")));
    assertTrue(sent.stream().noneMatch(t -> t.contains("hooks.example.org")));
    String summary =
        sent.stream().filter(t -> t.contains("more time(s)")).findFirst().orElseThrow();
    assertTrue(summary, summary.contains("20 more time(s) since"));
    assertTrue(summary, summary.contains("alice/watch-3"));
  }

  @Test
  public void aWatchWhoseSeenSetHoldsTheOldIdentitiesSeesNothingNewAfterTheUpgrade()
      throws Exception {
    verdict.set(answer(true, 0.9));
    String feed = url("/guidless.xml");
    Watch watch = watchOf(null, new WatchSource(WatchSource.RSS, feed, null, null));
    // the keys earlier versions recorded: guid, else the link as the feed wrote it
    Set<String> old =
        Set.of(
            "rss:" + feed + " " + url("/articles/launch?utm_source=rss&utm_medium=feed"),
            "rss:" + feed + " " + url("/articles/note").replace("localhost", "LOCALHOST"),
            "rss:" + feed + " g-other");
    RunPipeline.Outcome upgraded = run(watch, old);
    assertEquals(RunRecord.NOTHING_NEW, upgraded.record().outcome());
    assertEquals(3, upgraded.record().collected());
    assertEquals(0, requestsTo("/v1/chat/completions"));
    assertEquals(0, requestsTo("/articles/"));
    assertEquals(
        "the two items known by their old keys are recorded under their new ones",
        2,
        upgraded.newlySeen().size());
    // once the old keys have aged out of the seen set, the new ones still know the items
    Set<String> aged = new java.util.HashSet<>(upgraded.newlySeen());
    aged.add("rss:" + feed + " g-other");
    RunPipeline.Outcome later = run(watch, aged);
    assertEquals(RunRecord.NOTHING_NEW, later.record().outcome());
    assertTrue(later.newlySeen().isEmpty());
    // and seen sets from before keys were scoped (bare identities) too
    assertEquals(
        RunRecord.NOTHING_NEW,
        run(
                watch,
                Set.of(
                    url("/articles/launch?utm_source=rss&utm_medium=feed"),
                    url("/articles/note").replace("localhost", "LOCALHOST"),
                    "g-other"))
            .record()
            .outcome());
  }

  @Test
  public void oneArticleInTwoFeedsOfAWatchIsJudgedOnceFromItsBetterTrustedFeed() throws Exception {
    verdict.set(answer(true, 0.9));
    Watch two =
        watchOf(
            null,
            new WatchSource(WatchSource.RSS, url("/feed.xml"), "community", null),
            new WatchSource(WatchSource.RSS, url("/syndicated.xml"), "official", null));
    RunPipeline.Outcome outcome = run(two, Set.of());
    RunRecord r = outcome.record();
    assertEquals("launch, note, other", 3, r.collected());
    assertEquals(3, r.fresh());
    assertEquals("the launch's page is fetched once", 1, requestsTo("/articles/launch"));
    assertEquals("shown from the official feed, without its tracking", "official", r.trustTier());
    assertEquals(
        Set.of(
            "rss:" + url("/feed.xml") + " g-launch",
            "rss:" + url("/feed.xml") + " g-note",
            "rss:" + url("/syndicated.xml") + " syndicated-launch",
            "rss:" + url("/syndicated.xml") + " g-note"),
        Set.copyOf(outcome.newlySeen()));
    // next run: the launch is one item already judged, under either feed's guid
    seen.clear();
    RunRecord next =
        run(
                watchOf(null, new WatchSource(WatchSource.RSS, url("/syndicated.xml"), null, null)),
                Set.copyOf(outcome.newlySeen()))
            .record();
    assertEquals(RunRecord.NOTHING_NEW, next.outcome());
  }
}
