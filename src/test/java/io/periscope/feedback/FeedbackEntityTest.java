package io.periscope.feedback;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

public class FeedbackEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private EventSourcedBehaviorTestKit<
          FeedbackEntity.Command, FeedbackEntity.Event, FeedbackEntity.State>
      entity;

  @Before
  public void setUp() {
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            FeedbackEntity.create("alice:acme"),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  static Feedback feedback(String runId, String kind, String note) {
    return new Feedback(
        runId,
        kind,
        note,
        Instant.parse("2026-03-01T10:00:00Z"),
        new Feedback.RunSummary(
            Instant.parse("2026-03-01T09:00:00Z"), "alert", "Acme set a date.", 0.9));
  }

  private void give(Feedback f) {
    assertEquals(
        f,
        entity
            .<StatusReply<Feedback>>runCommand(r -> new FeedbackEntity.Give(f, r))
            .reply()
            .getValue());
  }

  private List<Feedback> newest(int limit) {
    return entity
        .<StatusReply<FeedbackEntity.FeedbackList>>runCommand(
            r -> new FeedbackEntity.GetFeedback(limit, r))
        .reply()
        .getValue()
        .feedback();
  }

  @Test
  public void feedbackGivenBeforeItemsCouldBeMarkedReadsWithNone() throws Exception {
    Feedback now =
        new Feedback(
            "r1",
            Feedback.MISSED,
            null,
            Instant.parse("2026-03-01T10:00:00Z"),
            new Feedback.RunSummary(Instant.parse("2026-03-01T09:00:00Z"), "no-match", "s", 0.1),
            List.of(
                new Feedback.ItemLabel(
                    "rss:f https://e.org/a", Feedback.RELEVANT, "A", "https://e.org/a", false)),
            new Feedback.MissedItem("rss:f https://e.org/a", "https://e.org/a", "A"));
    FeedbackEntity.FeedbackGiven event = new FeedbackEntity.FeedbackGiven(now);
    var serializer =
        (SerializerWithStringManifest)
            SerializationExtension.get(testKit.system()).findSerializerFor(event);
    String before =
        """
        {"feedback": {"runId": "r0", "kind": "wrong", "note": "not Acme",
          "at": "2026-01-01T10:00:00Z",
          "run": {"startedAt": "2026-01-01T09:00:00Z", "outcome": "alert", "summary": "s",
                  "confidence": 0.9}}}\
        """;
    var old =
        (FeedbackEntity.FeedbackGiven)
            serializer.fromBinary(
                before.getBytes(StandardCharsets.UTF_8), serializer.manifest(event));
    assertEquals("alert", old.feedback().run().outcome());
    assertEquals("wrong", old.feedback().kind());
    assertEquals(List.of(), old.feedback().items());
    assertNull(old.feedback().missedItem());
    assertEquals(
        event, serializer.fromBinary(serializer.toBinary(event), serializer.manifest(event)));
  }

  @Test
  public void markedItemsSurviveARestart() {
    Feedback marked =
        new Feedback(
            "r1",
            Feedback.USEFUL,
            null,
            Instant.parse("2026-03-01T10:00:00Z"),
            new Feedback.RunSummary(Instant.parse("2026-03-01T09:00:00Z"), "alert", "s", 0.9),
            List.of(
                new Feedback.ItemLabel("k1", Feedback.RELEVANT, "A", "https://e.org/a", true),
                new Feedback.ItemLabel("k2", Feedback.IRRELEVANT, "B", null, false)),
            null);
    give(marked);
    entity.restart();
    assertEquals(List.of(marked), newest(10));
  }

  @Test
  public void feedbackIsListedMostRecentlyGivenFirstAndSurvivesARestart() {
    give(feedback("r1", Feedback.USEFUL, null));
    give(feedback("r2", Feedback.MISSED, "the launch was on the blog"));
    entity.restart();
    assertEquals(
        List.of(
            feedback("r2", Feedback.MISSED, "the launch was on the blog"),
            feedback("r1", Feedback.USEFUL, null)),
        newest(10));
    assertEquals(1, newest(1).size());
  }

  @Test
  public void aSecondFeedbackOnARunReplacesTheFirstAndComesFirst() {
    give(feedback("r1", Feedback.USEFUL, null));
    give(feedback("r2", Feedback.USEFUL, null));
    give(feedback("r1", Feedback.WRONG, "not a launch"));
    entity.restart();
    assertEquals(List.of("r1", "r2"), newest(10).stream().map(Feedback::runId).toList());
    assertEquals(Feedback.WRONG, newest(1).get(0).kind());
  }

  @Test
  public void withdrawingRemovesItAndWithdrawingNothingIsRefused() {
    give(feedback("r1", Feedback.USEFUL, null));
    var missing = entity.<StatusReply<Done>>runCommand(r -> new FeedbackEntity.Withdraw("r9", r));
    assertTrue(missing.reply().isError());
    assertTrue(missing.hasNoEvents());
    assertTrue(
        entity
            .<StatusReply<Done>>runCommand(r -> new FeedbackEntity.Withdraw("r1", r))
            .reply()
            .isSuccess());
    entity.restart();
    assertEquals(List.of(), newest(10));
  }

  @Test
  public void onlyTheMostRecentAreKept() {
    for (int i = 0; i < FeedbackEntity.KEPT + 5; i++)
      give(feedback("r" + i, Feedback.USEFUL, null));
    List<Feedback> kept = newest(Integer.MAX_VALUE);
    assertEquals(FeedbackEntity.KEPT, kept.size());
    assertEquals("r" + (FeedbackEntity.KEPT + 4), kept.get(0).runId());
    assertEquals("r5", kept.get(kept.size() - 1).runId());
  }

  @Test
  public void aLongRunSummaryIsCutWhenKeptWithTheFeedback() {
    var record =
        new io.periscope.watch.RunRecord(
            "r1",
            "manual",
            Instant.now(),
            1,
            "alert",
            "x".repeat(2000),
            0.9,
            List.of(),
            null,
            List.of(),
            0,
            0,
            new io.periscope.watch.RunRecord.Collection(0, 0, 0, 0),
            List.of(),
            null,
            List.of(),
            0,
            new io.periscope.watch.RunRecord.Trimmed(0, 0),
            null,
            0,
            null,
            null,
            null);
    assertEquals(Feedback.MAX_SUMMARY, Feedback.RunSummary.of(record).summary().length());
  }
}
