package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.notify.AdminAlerts;
import io.periscope.notify.Alert;
import io.periscope.notify.ChannelId;
import io.periscope.notify.Delivery;
import io.periscope.notify.Notifier;
import io.periscope.notify.NotifyMeters;
import io.periscope.notify.TelegramSender;
import io.periscope.notify.TelegramSettings;
import io.periscope.notify.WebhookSender;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.TestWatches;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The watch's outbox: an alert's delivery to each channel is owed in the journal and tried again
 * after retryable failures until it is delivered, fails for good or runs out of time — across a
 * restart of the entity in between — without holding up the other channels or the next run.
 */
public class WatchOutboxTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(
          ConfigFactory.parseString(
                  "periscope.notify.retry { for = 1h, first-backoff = 200ms, max-backoff = 400ms }")
              .withFallback(EntityTestKits.config()));

  static final String HOOK = "webhook:https://example.org/h";
  static final String OTHER = "webhook:https://example.net/other";

  /**
   * Runs that alert {@code channels}, the alert decided at {@code alertAt} (now unless given), and
   * deliveries that {@code deliver} answers.
   */
  private static FakePipeline alerting(
      List<String> channels, BiFunction<String, Alert, CompletionStage<List<Delivery>>> deliver) {
    return alerting(channels, deliver, null);
  }

  private static FakePipeline alerting(
      List<String> channels,
      BiFunction<String, Alert, CompletionStage<List<Delivery>>> deliver,
      Instant alertAt) {
    return new FakePipeline()
        .answers(call -> FakePipeline.alerting(channels, alertAt != null ? alertAt : Instant.now()))
        .delivers(deliver);
  }

  /** Each delivery that failed for good, as "run channel: reason". */
  private static List<String> failedForGood(FakePipeline pipeline) {
    return pipeline.failedForGood.stream()
        .map(f -> f.alert().runId() + " " + f.channel() + ": " + f.reason())
        .toList();
  }

  /** Answers each channel's attempts from its script, in order; delivered once it runs out. */
  static final class Script implements BiFunction<String, Alert, CompletionStage<List<Delivery>>> {
    final Map<String, Queue<Delivery>> answers = new ConcurrentHashMap<>();

    Script then(String channel, Delivery answer) {
      answers.computeIfAbsent(channel, c -> new ConcurrentLinkedQueue<>()).add(answer);
      return this;
    }

    @Override
    public CompletionStage<List<Delivery>> apply(String channel, Alert alert) {
      Queue<Delivery> queue = answers.get(channel);
      Delivery next = queue == null ? null : queue.poll();
      return CompletableFuture.completedFuture(
          List.of(next != null ? next : Delivery.delivered(channel)));
    }
  }

  private final String entityId = "alice:" + UUID.randomUUID();

  private ActorRef<WatchEntity.Command> spawn(RunPipeline pipeline) {
    ActorRef<WatchEntity.Command> entity =
        testKit.spawn(WatchEntity.create(entityId, pipeline, Clock.systemUTC()));
    return entity;
  }

  private ActorRef<WatchEntity.Command> created(RunPipeline pipeline) {
    ActorRef<WatchEntity.Command> entity = spawn(pipeline);
    TestWatches.create(testKit, entity, TestWatches.acme("Acme", null));
    return entity;
  }

  private static RunRecord run(ActorRef<WatchEntity.Command> entity) {
    return TestWatches.run(testKit, entity);
  }

  private static RunRecord latest(ActorRef<WatchEntity.Command> entity) {
    TestProbe<StatusReply<WatchEntity.Runs>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRuns(1, probe.ref()));
    return probe.receiveMessage().getValue().runs().get(0);
  }

  /** The delivery to {@code channel} of the latest run, once it is no longer pending. */
  private static RunRecord.DeliveryRecord settled(
      ActorRef<WatchEntity.Command> entity, String channel) {
    return testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(10),
            Duration.ofMillis(50),
            () -> {
              RunRecord.DeliveryRecord d = delivery(latest(entity), channel);
              assertFalse(channel + " still pending", d.pending());
              return d;
            });
  }

  private static RunRecord.DeliveryRecord delivery(RunRecord run, String channel) {
    return run.deliveries().stream()
        .filter(d -> d.channel().equals(channel))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no delivery to " + channel + " in " + run));
  }

  @Test
  public void retryableFailuresAreTriedAgainUntilTheAlertIsDeliveredOnce() {
    Script script =
        new Script()
            .then(HOOK, Delivery.retryable(HOOK, "HTTP 503", null))
            .then(HOOK, Delivery.retryable(HOOK, "HTTP 429", Duration.ofSeconds(1)));
    FakePipeline pipeline = alerting(List.of(HOOK), script);
    ActorRef<WatchEntity.Command> entity = created(pipeline);

    RunRecord answered = run(entity);
    RunRecord.DeliveryRecord first = delivery(answered, HOOK);
    assertEquals(
        "the run answers after the first attempt", RunRecord.DeliveryRecord.PENDING, first.state());
    assertEquals("HTTP 503", first.error());
    assertEquals(1, first.attempts().size());
    assertNotNull(first.nextAttemptAt());
    assertEquals(0, answered.notificationsSent());

    RunRecord.DeliveryRecord done = settled(entity, HOOK);
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, done.state());
    assertTrue(done.ok());
    assertEquals(
        List.of(false, false, true), done.attempts().stream().map(RunRecord.Attempt::ok).toList());
    assertEquals("HTTP 429", done.attempts().get(1).error());
    Duration waited = Duration.between(done.attempts().get(1).at(), done.attempts().get(2).at());
    assertTrue(
        "Retry-After was honoured: " + waited, waited.compareTo(Duration.ofMillis(950)) >= 0);
    assertEquals(1, latest(entity).notificationsSent());
    assertEquals(List.of(HOOK, HOOK, HOOK), pipeline.attempts);
    assertEquals(List.of(), failedForGood(pipeline));

    // The wake-up index followed the owed delivery, and has the fire time back now nothing is owed.
    List<WatchEntity.Event> wakes = scheduleEvents();
    assertTrue(wakes.stream().anyMatch(e -> e instanceof WatchEntity.DeliveriesDue));
    WatchEntity.Event lastWake = wakes.get(wakes.size() - 1);
    assertTrue(lastWake.toString(), lastWake instanceof WatchEntity.ScheduleAdvanced);
  }

  @Test
  public void aPermanentFailureEndsTheDeliveryAtOnceAndTellsTheOperatorOnce() throws Exception {
    FakePipeline pipeline =
        alerting(List.of(HOOK), new Script().then(HOOK, Delivery.failed(HOOK, "HTTP 404")));
    ActorRef<WatchEntity.Command> entity = created(pipeline);

    RunRecord.DeliveryRecord d = delivery(run(entity), HOOK);
    assertEquals(RunRecord.DeliveryRecord.FAILED, d.state());
    assertEquals("HTTP 404", d.error());
    assertEquals(1, d.attempts().size());
    Thread.sleep(800); // longer than any backoff: nothing is tried again
    assertEquals(1, pipeline.attempts.size());
    assertEquals(
        List.of(latest(entity).runId() + " " + HOOK + ": HTTP 404"), failedForGood(pipeline));
  }

  @Test
  public void aDeliveryStillFailingAtItsDeadlineFailsWithOneOperatorAlert() {
    Script script = new Script();
    for (int i = 0; i < 100; i++) script.then(HOOK, Delivery.retryable(HOOK, "HTTP 502", null));
    // decided 1h (DELIVERY_RETRY_FOR) less 2 s ago: a few retries fit before the deadline
    FakePipeline pipeline =
        alerting(List.of(HOOK), script, Instant.now().minus(Duration.ofHours(1)).plusSeconds(2));
    ActorRef<WatchEntity.Command> entity = created(pipeline);

    run(entity);
    RunRecord.DeliveryRecord d = settled(entity, HOOK);
    assertEquals(RunRecord.DeliveryRecord.FAILED, d.state());
    assertTrue(d.error(), d.error().startsWith("HTTP 502; gave up: not delivered within 1h"));
    assertTrue(d.error(), d.error().contains("DELIVERY_RETRY_FOR"));
    int attempts = pipeline.attempts.size();
    assertTrue("retried until the deadline: " + attempts, attempts >= 3 && attempts <= 12);
    assertEquals(attempts, d.attempts().size());
    assertEquals(1, failedForGood(pipeline).size());
  }

  @Test
  public void whatIsOwedSurvivesARestartBetweenAttemptsAndIsDeliveredOnce() {
    FakePipeline pipeline =
        alerting(
            List.of(HOOK),
            new Script().then(HOOK, Delivery.retryable(HOOK, "could not connect", null)));
    ActorRef<WatchEntity.Command> entity = created(pipeline);
    assertTrue(delivery(run(entity), HOOK).pending());
    testKit.stop(entity); // its retry timer dies with it

    ActorRef<WatchEntity.Command> again = spawn(pipeline); // as the wake-up index starts it
    RunRecord.DeliveryRecord d = settled(again, HOOK);
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, d.state());
    assertEquals(2, d.attempts().size());
    assertEquals("one failed attempt, one delivered: no double", 2, pipeline.attempts.size());
  }

  @Test
  public void aDeliveryOwedPastItsDeadlineWhenTheWatchStartsAgainFailsWithoutAnotherAttempt()
      throws Exception {
    FakePipeline pipeline =
        alerting(
            List.of(HOOK),
            new Script().then(HOOK, Delivery.retryable(HOOK, "timed out", null)),
            Instant.now().minus(Duration.ofHours(1)).plusSeconds(1));
    ActorRef<WatchEntity.Command> entity = created(pipeline);
    assertTrue(delivery(run(entity), HOOK).pending());
    testKit.stop(entity);
    Thread.sleep(1500); // the node is down past the delivery's deadline

    ActorRef<WatchEntity.Command> again = spawn(pipeline);
    RunRecord.DeliveryRecord d = settled(again, HOOK);
    assertEquals(RunRecord.DeliveryRecord.FAILED, d.state());
    assertTrue(d.error(), d.error().startsWith("timed out; gave up"));
    assertEquals(1, pipeline.attempts.size());
    assertEquals(1, failedForGood(pipeline).size());
  }

  /** The events of the watch tagged for the wake-up index, oldest first. */
  private List<WatchEntity.Event> scheduleEvents() {
    return PersistenceTestKit.create(testKit.system())
        .persistedInStorage(WatchEntity.TYPE_KEY.name() + "|" + entityId)
        .stream()
        .map(e -> (WatchEntity.Event) e)
        .filter(e -> WatchEntity.tagsOf(e).contains(WatchEntity.SCHEDULE_TAG))
        .toList();
  }

  @Test
  public void aWatchDeletedWhileItOwesADeliveryStillMakesItAndTheIndexStillWakesIt() {
    FakePipeline pipeline =
        alerting(
            List.of(HOOK), new Script().then(HOOK, Delivery.retryable(HOOK, "HTTP 503", null)));
    ActorRef<WatchEntity.Command> entity = created(pipeline);
    assertTrue(delivery(run(entity), HOOK).pending());
    TestProbe<StatusReply<org.apache.pekko.Done>> deleted = testKit.createTestProbe();
    entity.tell(new WatchEntity.Delete(null, deleted.ref()));
    assertTrue(deleted.receiveMessage().isSuccess());
    List<WatchEntity.Event> wakes = scheduleEvents();
    assertTrue(
        "the deletion would take the watch out of the index; the owed delivery puts it back: "
            + wakes,
        wakes.get(wakes.size() - 1) instanceof WatchEntity.DeliveriesDue
            && wakes.get(wakes.size() - 2) instanceof WatchEntity.Deleted);

    assertEquals(RunRecord.DeliveryRecord.DELIVERED, settled(entity, HOOK).state());
    List<WatchEntity.Event> after = scheduleEvents();
    assertEquals(
        "nothing owed: the index forgets the deleted watch",
        new WatchEntity.ScheduleAdvanced(null, null),
        after.get(after.size() - 1));
  }

  @Test
  public void shardingsStopMessageWaitsForTheAttemptInFlightSoTheNextNodeDoesNotRepeatIt() {
    CompletableFuture<List<Delivery>> retry = new CompletableFuture<>();
    java.util.concurrent.atomic.AtomicInteger calls =
        new java.util.concurrent.atomic.AtomicInteger();
    FakePipeline pipeline =
        alerting(
            List.of(HOOK),
            (channel, alert) ->
                calls.incrementAndGet() == 1
                    ? CompletableFuture.completedFuture(
                        List.of(Delivery.retryable(HOOK, "HTTP 503", null)))
                    : retry);
    ActorRef<WatchEntity.Command> entity = created(pipeline);
    assertTrue(delivery(run(entity), HOOK).pending());
    testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(5),
            () -> {
              assertEquals("the retry is in flight", 2, pipeline.attempts.size());
              return null;
            });
    TestProbe<Object> watcher = testKit.createTestProbe();
    entity.tell(new WatchEntity.Stop()); // a hand-over or passivation
    watcher.expectNoMessage(Duration.ofMillis(300));
    retry.complete(List.of(Delivery.delivered(HOOK)));
    watcher.expectTerminated(entity, Duration.ofSeconds(5));

    ActorRef<WatchEntity.Command> again = spawn(pipeline);
    RunRecord.DeliveryRecord d = settled(again, HOOK);
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, d.state());
    assertEquals("the new incarnation does not send it again", 2, pipeline.attempts.size());
  }

  @Test
  public void aDeadChannelHoldsUpNeitherTheOtherChannelNorTheNextRun() {
    Script script = new Script();
    for (int i = 0; i < 100; i++) script.then(HOOK, Delivery.retryable(HOOK, "HTTP 503", null));
    FakePipeline pipeline = alerting(List.of(HOOK, OTHER), script);
    ActorRef<WatchEntity.Command> entity = created(pipeline);

    RunRecord first = run(entity);
    assertTrue(delivery(first, HOOK).pending());
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, delivery(first, OTHER).state());
    assertEquals(1, first.notificationsSent());
    RunRecord second = run(entity);
    assertTrue(
        "the next run ran while the dead channel is retried",
        !second.runId().equals(first.runId()));
  }

  /**
   * The real webhook sender against a loopback receiver that fails twice (503, then 429 with
   * Retry-After) and then accepts: the alert arrives once, the same payload each time; a receiver
   * that refuses for good (410) ends in one ⚠️ delivery-failed alert to the admin chat.
   */
  @Test
  public void aLoopbackReceiverFailingTwiceGetsTheAlertOnceAndARefusalTellsTheAdminChatOnce()
      throws Exception {
    try (MockWebServer receiver = new MockWebServer();
        MockWebServer telegram = new MockWebServer()) {
      receiver.enqueue(new MockResponse().setResponseCode(503));
      receiver.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "1"));
      receiver.enqueue(new MockResponse().setResponseCode(200));
      receiver.enqueue(new MockResponse().setResponseCode(410));
      telegram.enqueue(new MockResponse().setBody("{\"ok\":true}"));
      receiver.start();
      telegram.start();
      OkHttpClient client = new OkHttpClient();
      TelegramSender admin =
          new TelegramSender(
              client, new TelegramSettings(telegram.url("/").toString(), "123:abc", "", "42"));
      AdminAlerts alerts = new AdminAlerts(admin);
      Notifier notifier =
          new Notifier(
              Map.of(
                  ChannelId.Kind.WEBHOOK,
                  new WebhookSender(
                      client, io.periscope.notify.WebhookSecrets.NONE, Clock.systemUTC())),
              Optional.empty(),
              (owner, channels) -> CompletableFuture.completedFuture(Map.of()),
              new FixedWindowRateLimiter(100, Duration.ofHours(1), Clock.systemUTC()),
              alerts,
              new NotifyMeters(new SimpleMeterRegistry()));
      String hook = "webhook:" + receiver.url("/hook");
      FakePipeline pipeline =
          alerting(List.of(hook), (channel, alert) -> notifier.send(List.of(channel), alert))
              .whenFailedForGood(
                  f ->
                      alerts.alert(
                          AdminAlerts.Kind.DELIVERY_FAILED,
                          f.alert().owner(),
                          f.alert().watchId(),
                          f.reason()));
      ActorRef<WatchEntity.Command> entity = created(pipeline);

      run(entity);
      RunRecord.DeliveryRecord d = settled(entity, hook);
      assertEquals(RunRecord.DeliveryRecord.DELIVERED, d.state());
      List<String> bodies = new ArrayList<>();
      for (int i = 0; i < 3; i++)
        bodies.add(receiver.takeRequest(5, TimeUnit.SECONDS).getBody().readUtf8());
      assertEquals("the same alert each time", 1, bodies.stream().distinct().count());
      assertEquals(3, d.attempts().size());

      run(entity);
      RunRecord.DeliveryRecord refused = settled(entity, hook);
      assertEquals(RunRecord.DeliveryRecord.FAILED, refused.state());
      assertEquals("HTTP 410", refused.error());
      receiver.takeRequest(5, TimeUnit.SECONDS);
      RecordedRequest toAdmin = telegram.takeRequest(5, TimeUnit.SECONDS);
      assertNotNull(toAdmin);
      assertTrue(toAdmin.getBody().readUtf8().contains("delivery-failed"));
      Thread.sleep(800);
      assertEquals("no retry of a refusal", 4, receiver.getRequestCount());
      assertEquals("one operator alert", 1, telegram.getRequestCount());
    }
  }
}
