package io.periscope.backtest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.entity.OverQuota;
import io.periscope.entity.Refusal;
import io.periscope.feedback.FeedbackEntity;
import io.periscope.feedback.Feedbacks;
import io.periscope.llm.Judged;
import io.periscope.llm.JudgedItem;
import io.periscope.llm.ModelCallMeter;
import io.periscope.llm.OpenAiCompatibleClient;
import io.periscope.llm.PooledModel;
import io.periscope.llm.UsageRecorder;
import io.periscope.persistence.JournalReads;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.FakeJudge;
import io.periscope.testing.FakePipeline;
import io.periscope.testing.RunRecordBuilder;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import io.periscope.watch.RunPages;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Backtests over a real watch entity and journal and a loopback model: a run recorded before runs
 * kept what they judged is listed as not replayable (no call, not failed), a run with no verdict
 * now is failed, and a quota reached stops the backtest.
 */
public class BacktesterTest {
  private static ActorTestKit testKit;
  private static FakeJudge model;
  private static final AtomicInteger answers = new AtomicInteger();

  @BeforeClass
  public static void start() throws Exception {
    testKit = ActorTestKit.create(TestJournals.h2());
    JournalSchema.create(testKit.system());
    // the first question is answered unusably (twice: no verdict), every later one met
    model =
        new FakeJudge(
            q ->
                answers.incrementAndGet() <= 2
                    ? FakeJudge.answer("not a verdict", 10, 0, 1)
                    : FakeJudge.verdict(true, List.of("https://example.org/2"), 100, 0, 10));
  }

  @AfterClass
  public static void stop() throws Exception {
    testKit.shutdownTestKit();
    model.close();
  }

  /** A verdict run; with one judged item, or none as runs recorded before they kept them. */
  private static RunRecord run(String outcome, boolean kept) {
    return new RunRecordBuilder()
        .outcome(outcome)
        .verdict("recorded", 0.9)
        .judged(
            kept
                ? new Judged(
                    List.of(
                        new JudgedItem(
                            "rss:feed 2",
                            "Item 2",
                            "https://example.org/2",
                            "rss:feed",
                            "official",
                            null,
                            "Acme sets its launch for 1 March",
                            true)),
                    List.of())
                : null)
        .build();
  }

  private static Watch watch(String id) {
    return TestWatches.onSources("alice", id, TestWatches.OFFICIAL_FEED);
  }

  /** A watch whose runs record {@code records} in turn, run once for each. */
  private static RunPages history(String id, List<RunRecord> records) {
    AtomicInteger next = new AtomicInteger();
    FakePipeline recording =
        new FakePipeline()
            .answers(
                call -> new RunPipeline.Outcome(records.get(next.getAndIncrement()), List.of()));
    ActorRef<WatchEntity.Command> entity =
        testKit.spawn(
            WatchEntity.create(WatchEntity.entityId("alice", id), recording, Clock.systemUTC()));
    TestProbe<StatusReply<Watch>> created = testKit.createTestProbe();
    entity.tell(new WatchEntity.Create(watch(id), null, null, created.ref()));
    // the first write opens the journal: give it the time a loaded machine takes
    assertTrue(created.receiveMessage(Duration.ofSeconds(10)).isSuccess());
    TestProbe<StatusReply<RunRecord>> ran = testKit.createTestProbe();
    for (int i = 0; i < records.size(); i++) {
      entity.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, ran.ref()));
      assertTrue(ran.receiveMessage(Duration.ofSeconds(10)).isSuccess());
    }
    return new RunPages((o, w) -> entity, asks(), new JournalReads(testKit.system()));
  }

  private static Asks asks() {
    return new Asks(testKit.system(), Duration.ofSeconds(30));
  }

  private static Backtester backtester(RunPages history, ModelCallMeter meter) {
    ActorRef<FeedbackEntity.Command> feedback =
        testKit.spawn(FeedbackEntity.create("alice:" + UUID.randomUUID()));
    return new Backtester(
        testKit.system(),
        history,
        new Feedbacks((o, w) -> null, (o, w) -> feedback, history, asks(), Clock.systemUTC()),
        new PooledModel(
            () ->
                CompletableFuture.completedFuture(
                    new OpenAiCompatibleClient(model.baseUrl(), "judge", new OkHttpClient())),
            PooledModel.Keys.rotating(List.of("sk-backtester-test")),
            new io.periscope.llm.ModelMeters(
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry())),
        meter,
        UsageRecorder.NONE);
  }

  @Test
  public void oldRunsAreNotReplayableAndARunWithoutAVerdictNowIsFailed() throws Exception {
    RunRecord old = run(RunRecord.NO_MATCH, false);
    RunRecord unanswered = run(RunRecord.ALERT, true);
    RunRecord answered = run(RunRecord.ALERT, true);
    RunPages history =
        history("mixed", List.of(old, run(RunRecord.NOTHING_NEW, false), unanswered, answered));
    AtomicInteger counted = new AtomicInteger();
    ModelCallMeter meter =
        owner -> {
          counted.incrementAndGet();
          return CompletableFuture.completedFuture(null);
        };

    // one at a time, in order, so the unusable answers go to the older run
    Backtest result =
        backtester(history, meter)
            .run(watch("mixed"), 1, Backtester.Progress.NONE)
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertEquals("the newest verdict run", answered.runId(), result.runs().get(0).runId());
    assertEquals(Backtest.FAILED, result.runs().get(0).status());
    assertEquals("the model did not produce a valid verdict, twice", result.runs().get(0).error());

    Backtest all =
        backtester(history, meter)
            .run(watch("mixed"), 10, Backtester.Progress.NONE)
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertEquals("nothing-new runs asked no model: not listed", 3, all.summary().runs());
    Backtest.Replay oldest = all.runs().get(2);
    assertEquals(old.runId(), oldest.runId());
    assertEquals(Backtest.NOT_REPLAYABLE, oldest.status());
    assertNull(oldest.candidate());
    assertEquals(RunRecord.NO_MATCH, oldest.recorded().outcome());
    assertEquals(1, all.summary().notReplayable());
    assertEquals(0, all.summary().failed());
    assertEquals(2, all.summary().replayed());
    assertEquals(RunRecord.ALERT, all.runs().get(0).candidate().outcome());
    assertEquals("one call per replayed run, the failed one's included", 3, counted.get());
    assertEquals(2, all.usage().calls());
  }

  @Test
  public void aQuotaReachedStopsTheBacktest() throws Exception {
    RunPages history = history("capped", List.of(run(RunRecord.ALERT, true)));
    ModelCallMeter refusing =
        owner ->
            CompletableFuture.failedFuture(
                new OverQuota(Refusal.Kind.USED_UP, "modelCallsPerDay", 0, "quota reached"));
    try {
      backtester(history, refusing)
          .run(watch("capped"), 20, Backtester.Progress.NONE)
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      throw new AssertionError("the backtest went on past the quota");
    } catch (ExecutionException e) {
      assertTrue(Failures.unwrap(e) instanceof OverQuota);
    }
  }
}
