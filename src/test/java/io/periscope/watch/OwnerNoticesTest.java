package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.json.Json;
import io.periscope.notify.Alert;
import io.periscope.notify.ChannelId;
import io.periscope.notify.Delivery;
import io.periscope.notify.Notifier;
import io.periscope.notify.NotifyMeters;
import io.periscope.notify.WebhookSecrets;
import io.periscope.notify.WebhookSender;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.TestWatches;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.After;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A watch that keeps failing tells its owner once, on its own channels (a webhook receiver on
 * loopback, through the real notifier), and once more when it recovers; the streak survives a
 * restart of the entity, and an alert that reaches none of its channels counts as a failed run.
 */
public class OwnerNoticesTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(
          ConfigFactory.parseString(
                  "periscope.notify.retry { for = 1h, first-backoff = 200ms, max-backoff = 400ms"
                      + " }\n"
                      + "periscope.notify.owner-failing-after = 3")
              .withFallback(EntityTestKits.config()));

  private MockWebServer receiver;
  private String hook;
  private Notifier notifier;
  private final String entityId = "alice:" + UUID.randomUUID();

  @Before
  public void start() throws Exception {
    receiver = new MockWebServer();
    receiver.setDispatcher(
        new okhttp3.mockwebserver.Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return new MockResponse().setResponseCode(200);
          }
        });
    receiver.start();
    hook = "webhook:" + receiver.url("/hook");
    OkHttpClient client = new OkHttpClient();
    notifier =
        new Notifier(
            Map.of(
                ChannelId.Kind.WEBHOOK,
                new WebhookSender(client, WebhookSecrets.NONE, Clock.systemUTC())),
            Optional.empty(),
            (owner, channels) -> CompletableFuture.completedFuture(Map.of()),
            new FixedWindowRateLimiter(100, Duration.ofHours(1), Clock.systemUTC()),
            LoggedAlerts.create(),
            new NotifyMeters(new SimpleMeterRegistry()));
  }

  @After
  public void stop() throws Exception {
    receiver.shutdown();
  }

  /** How the next runs end: an error, nothing new, or an alert. */
  private volatile String next = RunRecord.ERROR;

  /** The owner notices the runs sent. */
  private final List<Alert> notices = new CopyOnWriteArrayList<>();

  /**
   * Runs that end as {@link #next} says, alerts to the hook answered {@code alertAnswer} (delivered
   * when null), and notices delivered by the real notifier to the loopback receiver.
   */
  private FakePipeline runs(Delivery alertAnswer) {
    return new FakePipeline()
        .answers(
            call ->
                next.equals(RunRecord.ERROR)
                    ? new RunPipeline.Outcome(
                        RunRecords.error(
                            call.trigger(), call.startedAt(), "every source failed: HTTP 404"),
                        List.of())
                    : next.equals(RunRecord.ALERT)
                        ? FakePipeline.alerting(List.of(hook), Instant.now())
                        : FakePipeline.answer(next))
        .delivers(
            (channel, alert) -> {
              if (!alert.operational())
                return CompletableFuture.completedFuture(
                    List.of(alertAnswer != null ? alertAnswer : Delivery.delivered(channel)));
              notices.add(alert);
              return notifier.send(List.of(channel), alert);
            });
  }

  private ActorRef<WatchEntity.Command> spawn(RunPipeline pipeline) {
    return testKit.spawn(WatchEntity.create(entityId, pipeline, Clock.systemUTC()));
  }

  private ActorRef<WatchEntity.Command> created(RunPipeline pipeline) {
    ActorRef<WatchEntity.Command> entity = spawn(pipeline);
    TestWatches.create(
        testKit, entity, TestWatches.acme("Acme launch", null).withChannels(List.of(hook)));
    return entity;
  }

  private static RunRecord run(ActorRef<WatchEntity.Command> entity) {
    return TestWatches.run(testKit, entity);
  }

  private static RunRecord runById(ActorRef<WatchEntity.Command> entity, String runId) {
    TestProbe<StatusReply<RunRecord>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRun(runId, probe.ref()));
    return probe.receiveMessage().getValue();
  }

  /** The next notice the receiver got, as the webhook's JSON payload. */
  private JsonNode nextNotice() throws Exception {
    RecordedRequest request = receiver.takeRequest(5, TimeUnit.SECONDS);
    assertNotNull("a notice arrived", request);
    return Json.parse(request.getBody().readByteArray());
  }

  private void noMoreNotices() throws Exception {
    assertNull("no other notice", receiver.takeRequest(700, TimeUnit.MILLISECONDS));
  }

  private static RunRecord.DeliveryRecord settledNotice(
      ActorRef<WatchEntity.Command> entity, String runId) {
    return testKit
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(5),
            Duration.ofMillis(50),
            () -> {
              RunRecord.DeliveryRecord d =
                  runById(entity, runId).deliveries().stream()
                      .filter(r -> r.notice() != null)
                      .findFirst()
                      .orElseThrow(() -> new AssertionError("no notice on run " + runId));
              assertTrue(!d.pending());
              return d;
            });
  }

  @Test
  public void aWatchFailingThreeRunsTellsItsOwnerOnceAndOnceMoreWhenItRecovers() throws Exception {
    FakePipeline runs = runs(null);
    ActorRef<WatchEntity.Command> entity = created(runs);

    run(entity);
    run(entity);
    noMoreNotices();
    RunRecord third = run(entity);
    JsonNode failing = nextNotice();
    assertEquals("periscope.notice", failing.get("type").asText());
    assertEquals("notice", failing.get("strength").asText());
    assertEquals(
        "keeps failing: every source failed: HTTP 404",
        failing.get("summary").asText().lines().findFirst().orElse(""));
    assertEquals("Acme launch", failing.get("watchName").asText());
    RunRecord.DeliveryRecord shown = settledNotice(entity, third.runId());
    assertEquals(RunRecord.DeliveryRecord.NOTICE_FAILING, shown.notice());
    assertEquals(RunRecord.DeliveryRecord.DELIVERED, shown.state());
    assertEquals(hook, shown.channel());
    assertEquals(
        "a notice is no alert sent", 0, runById(entity, third.runId()).notificationsSent());

    run(entity);
    run(entity);
    noMoreNotices();

    next = RunRecord.NOTHING_NEW;
    RunRecord good = run(entity);
    JsonNode recovered = nextNotice();
    assertTrue(
        recovered.get("summary").asText(),
        recovered.get("summary").asText().startsWith("recovered"));
    assertEquals(
        RunRecord.DeliveryRecord.NOTICE_RECOVERED, settledNotice(entity, good.runId()).notice());
    run(entity);
    noMoreNotices();
    assertEquals(2, notices.size());
  }

  @Test
  public void theStreakAndTheOwnerBeingToldSurviveARestartOfTheWatch() throws Exception {
    FakePipeline runs = runs(null);
    ActorRef<WatchEntity.Command> entity = created(runs);
    run(entity);
    run(entity);
    testKit.stop(entity);

    ActorRef<WatchEntity.Command> again = spawn(runs);
    run(again);
    assertTrue(nextNotice().get("summary").asText().startsWith("keeps failing"));
    settledNotice(again, latestRunId(again));
    testKit.stop(again);

    ActorRef<WatchEntity.Command> third = spawn(runs);
    run(third);
    noMoreNotices();
    next = RunRecord.NOTHING_NEW;
    run(third);
    assertTrue(nextNotice().get("summary").asText().startsWith("recovered"));
    noMoreNotices();
    assertEquals("told once that it fails, once that it recovered", 2, notices.size());
  }

  @Test
  public void alertsThatReachNoneOfTheirChannelsAreFailedRunsToo() throws Exception {
    next = RunRecord.ALERT;
    FakePipeline runs = runs(Delivery.failed(hook, "HTTP 410"));
    ActorRef<WatchEntity.Command> entity = created(runs);
    run(entity);
    run(entity);
    noMoreNotices();
    run(entity);
    JsonNode failing = nextNotice();
    assertTrue(
        failing.get("summary").asText(),
        failing
            .get("summary")
            .asText()
            .startsWith("keeps failing: its alert reached none of its channels (HTTP 410)"));
  }

  @Test
  public void aSnapshotAndDeliveriesWrittenBeforeNoticesReadAsNoStreakAndTheRunsAlert()
      throws Exception {
    var serialization = org.apache.pekko.serialization.SerializationExtension.get(testKit.system());
    WatchEntity.State told =
        WatchEntity.State.EMPTY.withFailing(new OwnerNotices.Streak(4, "boom", "r1", true));
    var serializer =
        (org.apache.pekko.serialization.SerializerWithStringManifest)
            serialization.findSerializerFor(told);
    String json = new String(serializer.toBinary(told), java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(json, json.contains(",\"failing\":{"));
    String old = json.substring(0, json.indexOf(",\"failing\":{")) + "}";
    WatchEntity.State read =
        (WatchEntity.State)
            serializer.fromBinary(
                old.getBytes(java.nio.charset.StandardCharsets.UTF_8), serializer.manifest(told));
    assertEquals(OwnerNotices.Streak.NONE, read.failing());
    assertEquals(
        told.failing(),
        ((WatchEntity.State)
                serializer.fromBinary(serializer.toBinary(told), serializer.manifest(told)))
            .failing());

    RunRecord.DeliveryRecord before = new RunRecord.DeliveryRecord(hook, null, true, null);
    assertNull(
        ((RunRecord.DeliveryRecord)
                serializer.fromBinary(serializer.toBinary(before), serializer.manifest(before)))
            .notice());
  }

  private static String latestRunId(ActorRef<WatchEntity.Command> entity) {
    TestProbe<StatusReply<WatchEntity.Runs>> probe = testKit.createTestProbe();
    entity.tell(new WatchEntity.GetRuns(1, probe.ref()));
    return probe.receiveMessage().getValue().runs().get(0).runId();
  }
}
