package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.llm.Judged;
import io.periscope.llm.JudgedItem;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.VerdictPrompt;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A run's judged items and usage in the journal: runs written before them read with neither, and
 * what a judged run adds to its event is bounded and measured (docs/performance.md).
 */
public class JudgedRunJournalTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static SerializerWithStringManifest serializer(Object event) {
    return (SerializerWithStringManifest)
        SerializationExtension.get(testKit.system()).findSerializerFor(event);
  }

  private static byte[] bytes(Object event) {
    return serializer(event).toBinary(event);
  }

  /**
   * Text of {@code length} characters: words drawn from the verdict prompt's own, as varied as
   * prose (a repeated letter would compress to nothing and measure nothing).
   */
  static String prose(int seed, int length) {
    String[] words = VerdictPrompt.SYSTEM.split("\\W+");
    java.util.Random random = new java.util.Random(seed);
    StringBuilder text = new StringBuilder();
    while (text.length() < length) text.append(words[random.nextInt(words.length)]).append(' ');
    return text.substring(0, length);
  }

  /** A run of the largest judged shape: every item listed with a full excerpt, every set-aside. */
  static WatchEntity.RunRecorded largest(boolean judged) {
    String feed = "rss:https://news.example.org/section/technology/feed.xml";
    List<JudgedItem> items = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < VerdictPrompt.MAX_ITEMS; i++) {
      String url = "https://news.example.org/2026/11/27/a-long-article-slug-about-things-" + i;
      items.add(
          new JudgedItem(
              feed + " " + url,
              "A headline of about eighty characters, as news headlines tend to be, number " + i,
              url,
              feed,
              "established",
              Instant.parse("2026-11-27T08:00:00Z"),
              prose(i, Judged.EXCERPT_CHARS),
              i == 0));
      seen.add(feed + " " + url);
    }
    List<Judged.SetAside> aside = new ArrayList<>();
    for (int i = 0; i < Judged.MAX_SET_ASIDE; i++)
      aside.add(
          new Judged.SetAside(
              feed + " https://news.example.org/2026/11/20/an-older-article-" + i,
              Judged.OLD_NEWS));
    RunRecord record =
        new RunRecord(
            "4f6d7a2e-1b3c-4d5e-8f90-a1b2c3d4e5f6",
            RunRecord.TRIGGER_SCHEDULE,
            Instant.parse("2026-11-27T09:00:00Z"),
            4200,
            RunRecord.NO_MATCH,
            "Nothing in these items shows the condition met.",
            0.1,
            List.of(),
            "The items are about the topic but none reports the event.",
            List.of(),
            120,
            20,
            new RunRecord.Collection(20, 120, 20, 0),
            List.of("openai:gpt-4o-mini"),
            null,
            List.of(),
            0,
            new RunRecord.Trimmed(0, 3),
            null,
            100,
            "not met at or above a threshold",
            judged ? new Judged(items, aside) : null,
            judged ? new ModelUsage(1, 9800, 0, 250, new BigDecimal("0.00162")) : null);
    return new WatchEntity.RunRecorded(record, seen, Map.of());
  }

  @Test
  public void aRunRecordedBeforeJudgedItemsAndUsageReadsWithNeither() throws Exception {
    WatchEntity.RunRecorded now = largest(true);
    SerializerWithStringManifest serializer = serializer(now);
    String before =
        """
        {"record": {"runId": "r1", "trigger": "manual", "startedAt": "2026-01-01T00:00:00Z",
          "durationMs": 10, "outcome": "no-match", "summary": "s", "confidence": 0.1,
          "evidence": [], "reasoning": "r", "sourceErrors": [], "collected": 2, "fresh": 2,
          "collection": {"attempted": 2, "collected": 2, "extracted": 2, "failed": 0},
          "models": ["openai:m"], "trustTier": null, "deliveries": [], "notificationsSent": 0,
          "trimmed": {"itemsDropped": 0, "textsCut": 0}, "error": null, "setAside": 0,
          "decision": "not met at or above a threshold"},
         "newlySeen": ["k1", "k2"]}\
        """;
    var event =
        (WatchEntity.RunRecorded)
            serializer.fromBinary(
                before.getBytes(StandardCharsets.UTF_8), serializer.manifest(now));
    assertEquals("r1", event.record().runId());
    assertNull(event.record().judged());
    assertNull(event.record().usage());
    assertEquals(event.record(), event.record().lean());

    var again =
        (WatchEntity.RunRecorded) serializer.fromBinary(bytes(now), serializer.manifest(now));
    assertEquals(now, again);
  }

  /**
   * As journaled: the JSON binding gzips an event over 32 KiB (Pekko's default), which a judged run
   * of this size is before compression.
   */
  @Test
  public void aJudgedRunAddsAtMostAboutThirtyKilobytesToItsEvent() throws Exception {
    int lean = bytes(largest(false)).length;
    int judged = bytes(largest(true)).length;
    int raw = io.periscope.json.Json.MAPPER.writeValueAsBytes(largest(true)).length;
    System.out.printf(
        "run event: %d bytes lean, %d bytes judged as journaled (+%d), %d bytes of JSON%n",
        lean, judged, judged - lean, raw);
    assertTrue("judged adds " + (judged - lean), judged - lean < 32 * 1024);
  }

  /** The same bytes as PostgreSQL stores them in a bytea column such as event_payload. */
  @Test
  @Category(NeedsPostgres.class)
  public void onPostgresTheJudgedRunsEventTakesWhatItsColumnMeasures() throws Exception {
    try (Connection c = TestJournals.connect(TestJournals.postgres());
        Statement s = c.createStatement()) {
      s.execute("CREATE TEMPORARY TABLE payloads (judged boolean, payload bytea)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO payloads VALUES (?, ?)")) {
        for (boolean judged : List.of(false, true)) {
          insert.setBoolean(1, judged);
          insert.setBytes(2, bytes(largest(judged)));
          insert.executeUpdate();
        }
      }
      try (ResultSet r =
          s.executeQuery(
              "SELECT judged, octet_length(payload), pg_column_size(payload) FROM payloads"
                  + " ORDER BY judged")) {
        r.next();
        int leanStored = r.getInt(3);
        r.next();
        int judgedStored = r.getInt(3);
        System.out.printf(
            "on PostgreSQL: %d bytes lean, %d bytes judged as stored (+%d); %d bytes raw%n",
            leanStored, judgedStored, judgedStored - leanStored, r.getInt(2));
        assertTrue(judgedStored > leanStored);
        assertTrue(judgedStored - leanStored < 32 * 1024);
      }
    }
  }
}
