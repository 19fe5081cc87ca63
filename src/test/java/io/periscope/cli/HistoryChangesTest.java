package io.periscope.cli;

import static io.periscope.cli.HistoryPrintouts.history;
import static io.periscope.cli.HistoryPrintouts.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.cli.HistoryPrintouts.Printed;
import io.periscope.history.RunHistory;
import io.periscope.history.WatchEvents;
import io.periscope.persistence.JournalReads;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.watch.Actor;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * {@code history --changes} on both real journals: every kind of change with its actor (a change
 * written before actors shows none), field-level differences, merged across watches in the order
 * written, {@code --reverse}, {@code -n}, {@code --grep}, the cursor, the formats and the exits.
 */
public class HistoryChangesTest {
  @Test(timeout = 120_000)
  public void onH2() throws Exception {
    changes(TestJournals.h2());
  }

  @Test(timeout = 120_000)
  @Category(NeedsPostgres.class)
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    changes(TestJournals.postgres());
  }

  private static Watch watch(String owner, String id, String condition, boolean enabled) {
    return new Watch(
        id,
        owner,
        "Watch " + id,
        List.of(new WatchSource("rss", "https://example.org/feed", null, null)),
        "0 7 * * *",
        condition,
        List.of(),
        0.8,
        null,
        enabled,
        "UTC");
  }

  private static void changes(Config config) throws Exception {
    ActorTestKit kit = ActorTestKit.create(config);
    try {
      JournalSchema.create(kit.system());
      JournalReads journal = new JournalReads(kit.system());
      WatchEvents events = new WatchEvents(kit);
      String owner = "c" + UUID.randomUUID().toString().substring(0, 8);
      Instant t = Instant.now();
      // b's create was written before actors were recorded
      events.write(
          owner, "b", new WatchEntity.Created(watch(owner, "b", "old", true), t, null, null, null));
      events.write(
          owner,
          "a",
          new WatchEntity.Created(
              watch(owner, "a", "Acme launches", true), t, null, Actor.owner(owner), null));
      events.write(
          owner,
          "a",
          new WatchEntity.Replaced(
              watch(owner, "a", "Acme sets a date", true), t, null, Actor.admin("root"), null));
      events.write(
          owner,
          "a",
          new WatchEntity.Replaced(
              watch(owner, "a", "Acme sets a date", false), t, null, Actor.cli(), null));
      events.write(owner, "b", new WatchEntity.Deleted(t, Actor.importBy(owner)));
      events.write(
          owner,
          "a",
          new WatchEntity.Replaced(
              watch(owner, "a", "Acme launches", true), t, null, Actor.owner(owner), 1));
      Thread.sleep(RunHistory.SETTLED.toMillis() + 100);

      Printed text = history(journal, "--changes", "--owner", owner);
      assertEquals(text.err(), ExitCodes.OK, text.exit());
      List<String> lines = text.lines();
      assertEquals(6, lines.size());
      assertTrue(lines.get(0), lines.get(0).contains(owner + "/b v1 created by=unrecorded"));
      assertTrue(lines.get(1), lines.get(1).contains("/a v1 created by=owner:" + owner));
      assertTrue(
          lines.get(2),
          lines
              .get(2)
              .contains(
                  "/a v2 replaced by=admin:root condition: \"Acme launches\" -> \"Acme sets a"
                      + " date\""));
      assertTrue(lines.get(3), lines.get(3).contains("/a v3 disabled by=cli:periscope-cli"));
      assertTrue(lines.get(3), lines.get(3).endsWith("enabled: true -> false"));
      assertTrue(lines.get(4), lines.get(4).contains("/b v2 deleted by=import:" + owner));
      assertTrue(
          lines.get(5), lines.get(5).contains("/a v4 restored by=owner:" + owner + " from=v1"));
      assertTrue(
          lines.get(5),
          lines.get(5).contains("condition: \"Acme sets a date\" -> \"Acme launches\""));

      // newest first, the newest two, one watch, a text
      Printed reversed = history(journal, "--changes", "--owner", owner, "--reverse", "-n", "2");
      assertEquals(2, reversed.lines().size());
      assertTrue(reversed.lines().get(0).contains("/a v4 restored"));
      assertTrue(reversed.lines().get(1).contains("/b v2 deleted"));
      Printed one = history(journal, "--changes", "--owner", owner, "--watch", "b", "--json-lines");
      assertEquals(2, one.lines().size());
      JsonNode first = json(one.lines().get(0));
      assertEquals("created", first.get("change").asText());
      assertTrue(first.path("actor").isMissingNode());
      Printed grep = history(journal, "--changes", "--owner", owner, "--grep", "ADMIN");
      assertEquals(1, grep.lines().size());

      // the cursor: resuming after the third change shows the last three, once
      Printed jsonLines = history(journal, "--changes", "--owner", owner, "--json-lines");
      String third = json(jsonLines.lines().get(2)).get("cursor").asText();
      Printed rest =
          history(journal, "--changes", "--owner", owner, "--json-lines", "--after", third);
      assertEquals(3, rest.lines().size());
      assertEquals("disabled", json(rest.lines().get(0)).get("change").asText());
      Printed none = history(journal, "--changes", "--owner", owner, "--after", jsonLines.cursor());
      assertEquals(List.of(), none.lines());

      // the formats
      Printed csv = history(journal, "--changes", "--owner", owner, "--csv");
      assertEquals(ChangeOutput.CSV_HEADER, csv.lines().get(0));
      assertEquals(7, csv.lines().size());
      JsonNode document = json(history(journal, "--changes", "--owner", owner, "--json").out());
      assertEquals(6, document.get("changes").size());
      assertEquals(jsonLines.cursor(), document.get("cursor").asText());
      assertEquals(
          "Acme launches",
          document.get("changes").get(5).get("differences").get(0).get("after").asText());

      // the exits
      assertEquals(
          ExitCodes.FAILED, history(journal, "--changes", "--owner", "nobody-" + owner).exit());
      assertEquals(
          ExitCodes.USAGE, history(journal, "--changes", "--owner", owner, "--follow").exit());
      assertEquals(ExitCodes.USAGE, history(journal, "--changes", "--trigger", "manual").exit());
    } finally {
      ActorTestKit.shutdown(kit.system(), Duration.ofSeconds(10));
    }
  }
}
