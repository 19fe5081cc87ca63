package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.notify.Alert;
import io.periscope.notify.ChannelId;
import io.periscope.notify.WebhookSecrets;
import io.periscope.notify.WebhookSender;
import io.periscope.quiet.QuietHours;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestWatches;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.After;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * Quiet hours and digests with a clock the test sets: alerts decided inside the window (or for a
 * digest) are held in the journal and go out as one message per channel — through the outbox, to a
 * real webhook receiver on loopback — when the scheduler wakes the watch at the window's end or the
 * digest time; operational alerts are never held.
 */
public class WatchQuietHoursTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(
          ConfigFactory.parseString(
                  "periscope.notify.retry { for = 1h, first-backoff = 200ms, max-backoff = 400ms }")
              .withFallback(EntityTestKits.config()));

  static final QuietHours NIGHT = new QuietHours("22:00", "07:00", null);
  static final Instant EVENING = Instant.parse("2026-01-10T23:00:00Z");
  static final Instant MORNING = Instant.parse("2026-01-11T07:00:00Z");

  private final MockWebServer receiver = new MockWebServer();
  private final MutableClock clock = new MutableClock(EVENING);
  private final WebhookSender sender =
      new WebhookSender(new OkHttpClient(), WebhookSecrets.NONE, java.time.Clock.systemUTC());
  private final AtomicInteger alerts = new AtomicInteger();

  /** How the next runs end: an alert (the default), nothing that matches, or a crash. */
  private volatile String next = RunRecord.ALERT;

  /**
   * Runs that alert to the watch's channels, each alert's summary numbered, delivered by the real
   * webhook sender.
   */
  private final FakePipeline pipeline =
      new FakePipeline()
          .runs(
              call ->
                  switch (next) {
                    case RunRecord.ERROR ->
                        CompletableFuture.failedFuture(new IllegalStateException("boom"));
                    case RunRecord.NO_MATCH ->
                        CompletableFuture.completedFuture(FakePipeline.answer(RunRecord.NO_MATCH));
                    default -> CompletableFuture.completedFuture(numbered(call));
                  })
          .delivers(
              (channel, alert) ->
                  sender.send(ChannelId.parse(channel).orElseThrow(), alert).thenApply(List::of));

  private RunPipeline.Outcome numbered(FakePipeline.Call call) {
    RunPipeline.Outcome outcome = FakePipeline.alerting(call.watch().channels(), call.startedAt());
    Alert a = outcome.alert().alert();
    Alert numbered =
        new Alert(
            a.owner(),
            a.watchId(),
            a.watchName(),
            a.strength(),
            a.confidence(),
            "Alert number " + alerts.incrementAndGet(),
            List.of(new Alert.Evidence("item " + alerts.get(), "https://example.org/" + alerts)),
            a.condition(),
            a.at(),
            a.runId());
    return new RunPipeline.Outcome(
        outcome.record(),
        outcome.newlySeen(),
        new RunPipeline.PendingAlert(outcome.alert().channels(), numbered),
        Map.of());
  }

  private final String entityId = "alice:" + UUID.randomUUID();

  @Before
  public void start() throws Exception {
    for (int i = 0; i < 10; i++) receiver.enqueue(new MockResponse().setResponseCode(200));
    receiver.start();
  }

  @After
  public void stop() throws Exception {
    receiver.shutdown();
  }

  private String hook(String path) {
    return "webhook:" + receiver.url(path);
  }

  /** A watch due at noon: no scheduled run comes before the releases of these tests. */
  private ActorRef<WatchEntity.Command> created(
      QuietHours quiet, String digest, List<String> channels) {
    return created(quiet, digest, channels, "0 12 * * *");
  }

  private ActorRef<WatchEntity.Command> created(
      QuietHours quiet, String digest, List<String> channels, String schedule) {
    ActorRef<WatchEntity.Command> entity = spawn();
    Watch base = TestWatches.acme("Acme", null);
    Watch watch =
        new Watch(
            base.id(),
            base.owner(),
            base.name(),
            base.sources(),
            schedule,
            base.condition(),
            channels,
            base.threshold(),
            base.weakThreshold(),
            base.enabled(),
            base.timeZone(),
            quiet,
            digest);
    TestWatches.create(testKit, entity, watch);
    return entity;
  }

  private ActorRef<WatchEntity.Command> spawn() {
    return testKit.spawn(WatchEntity.create(entityId, pipeline, clock));
  }

  private RunRecord runAt(ActorRef<WatchEntity.Command> entity, Instant at) {
    clock.set(at);
    TestProbe<StatusReply<RunRecord>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, probe.ref()));
    return probe.receiveMessage(Duration.ofSeconds(10)).getValue();
  }

  private static List<RunRecord> runs(ActorRef<WatchEntity.Command> entity) {
    TestProbe<StatusReply<WatchEntity.Runs>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRuns(10, probe.ref()));
    return probe.receiveMessage().getValue().runs();
  }

  /** The next webhook the receiver got, as JSON with its webhook-id; null when none came. */
  private JsonNode nextWebhook(long seconds) throws Exception {
    RecordedRequest request = receiver.takeRequest(seconds, TimeUnit.SECONDS);
    if (request == null) return null;
    return ((com.fasterxml.jackson.databind.node.ObjectNode)
            Json.MAPPER.readTree(request.getBody().readUtf8()))
        .put("path", request.getPath())
        .put("webhookId", request.getHeader("webhook-id"));
  }

  private static void assertHeldUntil(RunRecord run, Instant until) {
    assertTrue("a delivery for each channel: " + run, !run.deliveries().isEmpty());
    for (RunRecord.DeliveryRecord d : run.deliveries()) {
      assertEquals(d.toString(), RunRecord.DeliveryRecord.HELD, d.state());
      assertEquals(until, d.nextAttemptAt());
      assertEquals(List.of(), d.attempts());
    }
    assertEquals(0, run.notificationsSent());
  }

  /** The wake-up time the index was last told, as the scheduler reads the journal. */
  private Instant lastWake() {
    List<WatchEntity.Event> events = new ArrayList<>();
    for (Object e :
        PersistenceTestKit.create(testKit.system())
            .persistedInStorage(WatchEntity.TYPE_KEY.name() + "|" + entityId))
      if (WatchEntity.tagsOf((WatchEntity.Event) e).contains(WatchEntity.SCHEDULE_TAG))
        events.add((WatchEntity.Event) e);
    WatchEntity.Event last = events.get(events.size() - 1);
    return last instanceof WatchEntity.DeliveriesDue due ? due.at() : null;
  }

  @Test
  public void alertsInsideTheWindowGoOutOnceAtItsEndAsOneMessagePerChannel() throws Exception {
    List<String> channels = List.of(hook("/a"), hook("/b"));
    ActorRef<WatchEntity.Command> entity = created(NIGHT, null, channels);

    assertHeldUntil(runAt(entity, EVENING), MORNING);
    assertHeldUntil(runAt(entity, Instant.parse("2026-01-11T02:30:00Z")), MORNING);
    assertEquals("the index wakes the watch at the window's end", MORNING, lastWake());
    assertNull("nothing is sent inside the window", nextWebhook(1));

    clock.set(MORNING.minusSeconds(1));
    entity.tell(new WatchEntity.Fire(MORNING)); // a wake-up a second early releases nothing
    assertNull(nextWebhook(1));

    clock.set(MORNING);
    entity.tell(new WatchEntity.Fire(MORNING)); // as the wake-up index starts the watch
    JsonNode first = nextWebhook(5);
    JsonNode second = nextWebhook(5);
    assertEquals(
        "one message to each channel",
        java.util.Set.of("/a", "/b"),
        java.util.Set.of(first.get("path").asText(), second.get("path").asText()));
    for (JsonNode message : List.of(first, second)) {
      String summary = message.get("summary").asText();
      assertTrue(summary, summary.startsWith("2 alerts held back:"));
      assertTrue(summary, summary.contains("1. Alert number 1\n2. Alert number 2"));
      assertEquals(2, message.get("evidence").size());
      assertEquals(MORNING.toString(), message.get("at").asText());
    }
    assertEquals(
        "one alert, one id on every channel",
        first.get("webhookId").asText(),
        second.get("webhookId").asText());

    testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(5),
            () -> {
              for (RunRecord run : runs(entity)) {
                assertEquals(2, run.deliveries().size());
                for (RunRecord.DeliveryRecord d : run.deliveries())
                  assertEquals(d.toString(), RunRecord.DeliveryRecord.DELIVERED, d.state());
                assertEquals(2, run.notificationsSent());
              }
              return null;
            });
    entity.tell(new WatchEntity.Fire(MORNING)); // the index may send it again
    assertNull("released once", nextWebhook(1));
    assertNull("nothing owed or held: the index has the fire time back", lastWake());
  }

  @Test
  public void scheduledRunsWithoutAnAlertKeepTheIndexWakingTheWatchForTheRelease() {
    ActorRef<WatchEntity.Command> entity = created(NIGHT, null, List.of(hook("/a")), "0 */6 * * *");
    runAt(entity, EVENING);
    next = RunRecord.NO_MATCH;
    int recorded = 1;
    for (String due : List.of("2026-01-11T00:00:00Z", "2026-01-11T06:00:00Z")) {
      Instant at = Instant.parse(due);
      clock.set(at);
      entity.tell(new WatchEntity.Fire(at));
      int expected = ++recorded;
      testKit
          .createTestProbe()
          .awaitAssert(
              Duration.ofSeconds(5),
              () -> {
                assertEquals(expected, runs(entity).size());
                return null;
              });
    }
    assertEquals(
        "06:00's run set the next fire to 12:00; the release is first", MORNING, lastWake());
  }

  @Test
  public void anAlertOutsideTheWindowIsSentAtOnce() throws Exception {
    ActorRef<WatchEntity.Command> entity = created(NIGHT, null, List.of(hook("/a")));
    RunRecord run = runAt(entity, Instant.parse("2026-01-11T12:00:00Z"));
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, run.deliveries().get(0).state());
    assertEquals("Alert number 1", nextWebhook(5).get("summary").asText());
  }

  @Test
  public void anOperationalAlertInsideTheWindowIsNotHeld() {
    ActorRef<WatchEntity.Command> entity = created(NIGHT, null, List.of(hook("/a")));
    next = RunRecord.ERROR;
    RunRecord crashed = runAt(entity, EVENING);
    assertEquals(RunRecord.ERROR, crashed.outcome());
    assertEquals(
        "the operator hears of the crash at once",
        List.of(crashed.runId()),
        pipeline.crashes.stream().map(c -> c.record().runId()).toList());
  }

  @Test
  public void anHourlyDigestGroupsThreeAlertsIntoOneDelivery() throws Exception {
    ActorRef<WatchEntity.Command> entity = created(null, "hourly", List.of(hook("/a")));
    Instant eleven = Instant.parse("2026-01-11T11:00:00Z");
    for (String at : List.of("10:05", "10:20", "10:40"))
      assertHeldUntil(runAt(entity, Instant.parse("2026-01-11T" + at + ":00Z")), eleven);
    assertNull(nextWebhook(1));

    clock.set(eleven);
    entity.tell(new WatchEntity.Fire(eleven));
    JsonNode digest = nextWebhook(5);
    assertTrue(digest.toString(), digest.get("summary").asText().startsWith("3 alerts held back:"));
    assertEquals(3, digest.get("evidence").size());
    assertNull("one delivery for the three", nextWebhook(1));
  }

  @Test
  public void heldAlertsSurviveARestartAndGoOutWhenTheWatchStartsAfterTheWindow() throws Exception {
    ActorRef<WatchEntity.Command> entity = created(NIGHT, null, List.of(hook("/a")));
    runAt(entity, EVENING);
    runAt(entity, EVENING.plusSeconds(60));
    testKit.stop(entity);

    clock.set(MORNING.plusSeconds(5)); // the node was down at the window's end
    spawn(); // as the wake-up index starts it: its recovery releases what is due
    JsonNode released = nextWebhook(5);
    assertTrue(released.toString(), released.get("summary").asText().startsWith("2 alerts"));
    assertNull("once", nextWebhook(1));
  }

  private static Object roundTrip(Object message, java.util.function.UnaryOperator<String> edit)
      throws Exception {
    return EntityTestKits.roundTrip(testKit.system(), message, edit);
  }

  @Test
  public void journalsAndSnapshotsFromBeforeQuietHoursReadAsHoldingNothing() throws Exception {
    RunRecord record = FakePipeline.record(RunRecord.ALERT);
    Alert alert = FakePipeline.alertOf(record, EVENING);
    String strip = "(,\"(heldUntil|quietHours|digest|held|carries)\":(null|\\[\\]))";
    WatchEntity.RunJudged judged =
        (WatchEntity.RunJudged)
            roundTrip(
                new WatchEntity.RunJudged(
                    record, List.of(), List.of("telegram"), Map.of(), alert, MORNING),
                json -> json.replaceAll(strip, ""));
    assertNull(judged.heldUntil());
    WatchEntity.Pending owed =
        new WatchEntity.Pending(record.runId(), "telegram", alert, MORNING, null);
    WatchEntity.State old =
        (WatchEntity.State)
            roundTrip(
                WatchEntity.State.EMPTY
                    .created(TestWatches.acme("Acme", null), EVENING, null)
                    .withOutbox(List.of(owed)),
                json -> json.replaceAll(strip, ""));
    assertEquals(List.of(), old.held());
    assertEquals(List.of(), old.outbox().get(0).carries());
    assertNull(old.watch().quietHours());
    assertNull(old.watch().digest());

    // and what they hold now round-trips
    HeldAlert held = new HeldAlert(record.runId(), List.of("telegram"), alert, MORNING);
    WatchEntity.HeldReleased released =
        HeldAlerts.release(List.of(held, held), MORNING, Duration.ofHours(1)).orElseThrow();
    assertEquals(released, roundTrip(released, json -> json));
    WatchEntity.State holding = old.withHeld(List.of(held));
    assertEquals(holding, roundTrip(holding, json -> json));
  }
}
