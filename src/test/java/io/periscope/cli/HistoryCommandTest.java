package io.periscope.cli;

import static io.periscope.cli.HistoryPrintouts.history;
import static io.periscope.cli.HistoryPrintouts.json;
import static io.periscope.history.WatchEvents.delivered;
import static io.periscope.history.WatchEvents.judged;
import static io.periscope.history.WatchEvents.quiet;
import static io.periscope.history.WatchEvents.record;
import static io.periscope.history.WatchEvents.recorded;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
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
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import picocli.CommandLine;

/**
 * {@code history} on both real journals, with watches whose runs interleave in time: merged order,
 * {@code --reverse}, newest N, each filter, the cursor (ten exports while runs are recorded, and
 * following), the formats, the time zone and the exits.
 */
public class HistoryCommandTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test(timeout = 180_000)
  public void onH2() throws Exception {
    everything(TestJournals.h2());
  }

  @Test(timeout = 180_000)
  @Category(NeedsPostgres.class)
  public void onPostgres() throws Exception {
    TestJournals.requirePostgres();
    everything(TestJournals.postgres());
  }

  /** Waits until what was written is in the past a history reads ({@link RunHistory#SETTLED}). */
  private static void settle() throws InterruptedException {
    Thread.sleep(RunHistory.SETTLED.toMillis() + 100);
  }

  private static Instant at(int minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  private static void everything(Config config) throws Exception {
    ActorTestKit kit = ActorTestKit.create(config);
    try {
      JournalSchema.create(kit.system());
      JournalReads journal = new JournalReads(kit.system());
      WatchEvents events = new WatchEvents(kit);
      String owner = "h" + UUID.randomUUID().toString().substring(0, 8);
      interleavedRuns(events, owner);
      settle();
      replays(journal, owner);
      filters(journal, owner);
      formats(journal, owner);
      exits(journal, owner);
      exportsResume(journal, events);
      followResumes(journal, events);
    } finally {
      kit.shutdownTestKit();
    }
  }

  /**
   * Two watches of {@code owner} (and another account's) whose runs interleave: every trigger,
   * delivery state and channel kind, a run recorded after one that started later, a retry that ends
   * a pending delivery after later runs, and held alerts released in a grouped delivery.
   */
  private static void interleavedRuns(WatchEvents e, String owner) throws Exception {
    String mail = "email:ann@example.com";
    e.write(owner, "a", recorded(quiet("a1", at(0))));
    e.write(owner + "x", "a", recorded(quiet("x1", at(5))));
    e.write(
        owner,
        "b",
        judged(
            record(
                "b1",
                RunRecord.TRIGGER_MANUAL,
                RunRecord.ALERT,
                at(10),
                "=HYPERLINK(\"http://evil\"), cheap",
                "the price went up",
                null,
                "threshold",
                List.of(),
                List.of()),
            mail));
    e.write(owner, "b", delivered("b1", mail, RunRecord.DeliveryRecord.DELIVERED));
    e.write(
        owner,
        "a",
        recorded(
            record(
                "a2",
                RunRecord.TRIGGER_SCHEDULE,
                RunRecord.ERROR,
                at(20),
                null,
                null,
                "every source failed",
                null,
                List.of(),
                List.of())));
    e.write(
        owner,
        "b",
        judged(
            record(
                "b2",
                RunRecord.TRIGGER_MANUAL,
                RunRecord.ALERT,
                at(30),
                "sent to the chat",
                null,
                null,
                "threshold",
                List.of(),
                List.of()),
            "telegram"));
    e.write(owner, "b", delivered("b2", "telegram", RunRecord.DeliveryRecord.FAILED));
    e.write(
        owner,
        "a",
        judged(
            record(
                "a3",
                RunRecord.TRIGGER_MANUAL,
                RunRecord.WEAK_ALERT,
                at(40),
                "maybe",
                null,
                null,
                "weak-threshold",
                List.of(),
                List.of()),
            mail));
    e.write(owner, "a", delivered("a3", mail, RunRecord.DeliveryRecord.PENDING));
    e.write(
        owner,
        "b",
        judged(
            record(
                "b3",
                RunRecord.TRIGGER_MANUAL,
                RunRecord.ALERT,
                at(50),
                "held for the night",
                null,
                null,
                "threshold",
                List.of(),
                List.of(RunRecord.DeliveryRecord.held(mail, at(600)))),
            mail));
    e.write(
        owner,
        "a",
        recorded(
            record(
                "a4",
                RunRecord.TRIGGER_RUN_ALL,
                RunRecord.NO_MATCH,
                at(60),
                "Acme raises prices",
                "not the condition",
                null,
                "below-threshold",
                List.of(new RunRecord.Evidence("http://acme.test/q", "Quarterly Report", "q")),
                List.of())));
    e.write(
        owner, "b", recorded(WatchEvents.judging(quiet("b4", at(70)), "Weekly Digest Of Prices")));
    // started before b4, recorded after it
    e.write(owner, "a", recorded(quiet("a5", at(65))));
    // the retry that ends a3's pending delivery, after later runs of its watch
    e.write(owner, "a", delivered("a3", mail, RunRecord.DeliveryRecord.DELIVERED));
    e.write(
        owner,
        "b",
        judged(
            record(
                "b5",
                RunRecord.TRIGGER_MANUAL,
                RunRecord.ALERT,
                at(80),
                "red \u001b[31malert\u001b[0m\nsecond line",
                null,
                null,
                "threshold",
                List.of(),
                List.of()),
            mail));
    e.write(owner, "b", delivered("b5", mail, RunRecord.DeliveryRecord.PENDING));
    e.write(
        owner,
        "b",
        judged(
            record(
                "b6",
                RunRecord.TRIGGER_SCHEDULE,
                RunRecord.ALERT,
                at(90),
                "digest",
                null,
                null,
                "threshold",
                List.of(),
                List.of(RunRecord.DeliveryRecord.held(mail, at(95)))),
            mail));
    e.write(
        owner,
        "b",
        new WatchEntity.HeldReleased(
            List.of("b6"),
            List.of(
                new WatchEntity.Pending("release-1", mail, null, at(200), null, List.of("b6")))));
    e.write(owner, "b", delivered("release-1", mail, RunRecord.DeliveryRecord.DELIVERED));
  }

  private static final List<String> IN_ORDER =
      List.of("a1", "b1", "a2", "b2", "a3", "b3", "a4", "a5", "b4", "b5", "b6");

  private static void replays(JournalReads j, String owner) throws Exception {
    assertEquals(IN_ORDER, history(j, "--owner", owner).runs());
    List<String> reversed = new ArrayList<>(IN_ORDER);
    java.util.Collections.reverse(reversed);
    assertEquals(reversed, history(j, "--owner", owner, "--reverse").runs());
    assertEquals(List.of("b4", "b5", "b6"), history(j, "--owner", owner, "-n", "3").runs());
    assertEquals(
        List.of("b6", "b5", "b4"),
        history(j, "--owner", owner, "--limit", "3", "--reverse").runs());
    assertEquals(
        List.of("a1", "a2", "a3", "a4", "a5"), history(j, "--owner", owner, "--watch", "a").runs());
    assertEquals(
        List.of("a5", "a4"),
        history(j, "--owner", owner, "--watch", "a", "-n", "2", "--reverse").runs());
    // the instance: this owner's runs merged with the other account's
    List<String> all = history(j).runs();
    assertTrue(all.indexOf("a1") < all.indexOf("x1") && all.indexOf("x1") < all.indexOf("b1"));
    // deliveries as the journal ends them, read either way
    for (String order : List.of("--utc", "--reverse")) {
      Map<String, JsonNode> runs = new java.util.HashMap<>();
      for (String line : history(j, "--owner", owner, "--json-lines", order).lines()) {
        JsonNode run = json(line);
        runs.put(run.get("runId").asText(), run);
      }
      assertEquals(
          order, "delivered", runs.get("a3").get("deliveries").get(0).get("state").asText());
      assertEquals(
          order, "delivered", runs.get("b6").get("deliveries").get(0).get("state").asText());
      assertEquals(order, "held", runs.get("b3").get("deliveries").get(0).get("state").asText());
      assertEquals(order, "pending", runs.get("b5").get("deliveries").get(0).get("state").asText());
    }
  }

  private static void filters(JournalReads j, String owner) throws Exception {
    assertEquals(
        List.of("a1", "a2", "a5", "b4", "b6"),
        history(j, "--owner", owner, "--trigger", "schedule").runs());
    assertEquals(List.of("a4"), history(j, "--owner", owner, "--trigger", "run-all").runs());
    assertEquals(
        List.of("b1", "b2", "a3", "b3", "b5"),
        history(j, "--owner", owner, "--trigger", "manual").runs());
    assertEquals(List.of("b2"), history(j, "--owner", owner, "--delivery", "failed").runs());
    assertEquals(List.of("b5"), history(j, "--owner", owner, "--delivery", "retrying").runs());
    assertEquals(List.of("b3"), history(j, "--owner", owner, "--delivery", "held").runs());
    assertEquals(
        List.of("b1", "a3", "b6"), history(j, "--owner", owner, "--delivery", "delivered").runs());
    assertEquals(
        List.of("b2", "b3"), history(j, "--owner", owner, "--delivery", "failed,held").runs());
    assertEquals(List.of("b2"), history(j, "--owner", owner, "--channel", "telegram").runs());
    assertEquals(
        List.of("b1", "a3", "b3", "b5", "b6"),
        history(j, "--owner", owner, "--channel", "email").runs());
    // summary, reasoning, error, a cited or judged item's title; any case
    assertEquals(List.of("b1", "a4", "b4"), history(j, "--owner", owner, "--grep", "PRICE").runs());
    assertEquals(List.of("a4"), history(j, "--owner", owner, "--grep", "quarterly rep").runs());
    // the title of an item the run put before the model
    assertEquals(List.of("b4"), history(j, "--owner", owner, "--grep", "digest of").runs());
    assertEquals(List.of("a2"), history(j, "--owner", owner, "--grep", "source FAILED").runs());
    assertEquals(List.of("a3"), history(j, "--owner", owner, "--run", "a3").runs());
    assertEquals(
        List.of("a2"),
        history(j, "--owner", owner, "--outcome", "error", "--trigger", "schedule").runs());
    assertEquals(
        List.of("b2", "a3", "b3", "a4"),
        history(j, "--owner", owner, "--since", at(30).toString(), "--until", at(65).toString())
            .runs());
    assertEquals(
        List.of("a4", "b3"),
        history(
                j,
                "--owner",
                owner,
                "--since",
                at(50).toString(),
                "--until",
                at(65).toString(),
                "--reverse")
            .runs());
    assertEquals(List.of(), history(j, "--owner", owner, "--since", "1h").runs());
  }

  private static void formats(JournalReads j, String owner) throws Exception {
    List<String> text = history(j, "--owner", owner).lines();
    assertEquals(
        "2026-01-01T00:20:00Z "
            + owner
            + "/a error run=a2 trigger=schedule collected=1 fresh=1"
            + " notified=0 errors=0 error=\"every source failed\"",
        text.get(2));
    assertTrue(text.get(6), text.get(6).contains(" decision=below-threshold Acme raises prices"));
    assertTrue(text.get(3), text.get(3).contains(" deliveries=telegram:failed decision=threshold"));
    // terminal escapes and line breaks of feed text do not reach the terminal
    assertTrue(text.get(9), text.get(9).endsWith(" red [31malert [0m second line"));
    assertFalse(String.join("", text).contains("\u001b"));

    Printed csv = history(j, "--owner", owner, "--csv");
    List<String> rows = csv.lines();
    assertEquals(
        "cursor,startedAt,owner,watchId,runId,trigger,outcome,durationMs,collected,fresh,"
            + "notified,sourceErrors,deliveries,decision,error,summary",
        rows.get(0));
    // the header, eleven runs, and b5's summary keeps its line break inside its quotes
    assertEquals(13, rows.size());
    assertTrue(rows.get(2), rows.get(2).contains(",b1,manual,alert,"));
    // a formula is shown as text, quoted because of its comma and quotes
    assertTrue(rows.get(2), rows.get(2).endsWith(",\"'=HYPERLINK(\"\"http://evil\"\"), cheap\""));
    assertTrue(csv.out(), csv.out().contains(",\"red \u001b[31malert\u001b[0m\nsecond line\"\n"));
    assertFalse(csv.cursor().isEmpty());

    JsonNode document = json(history(j, "--owner", owner, "--watch", "a", "--json").out());
    assertEquals(owner, document.get("owner").asText());
    assertEquals("a", document.get("watchId").asText());
    assertEquals(5, document.get("runs").size());
    assertEquals("a1", document.get("runs").get(0).get("runId").asText());
    assertEquals(
        List.of(),
        history(j, "--owner", owner, "--watch", "a", "--after", document.get("cursor").asText())
            .runs());

    for (String line : history(j, "--owner", owner, "--json-lines").lines())
      assertFalse(line, json(line).get("cursor").asText().isEmpty());

    TimeZone zone = TimeZone.getDefault();
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata"));
      String local = history(j, "--owner", owner, "--local").lines().get(0);
      assertTrue(
          local, local.startsWith("2026-01-01T05:30:00+05:30 " + owner + "/a nothing-new run=a1"));
      assertTrue(
          history(j, "--owner", owner, "--utc")
              .lines()
              .get(0)
              .startsWith("2026-01-01T00:00:00Z " + owner + "/a nothing-new run=a1"));
      // a time without a zone is in the zone shown: 06:00 in Kolkata is 00:30 UTC
      assertEquals(
          List.of("b2", "a3"),
          history(
                  j,
                  "--owner",
                  owner,
                  "--local",
                  "--since",
                  "2026-01-01T06:00",
                  "--until",
                  "2026-01-01T06:15")
              .runs());
    } finally {
      TimeZone.setDefault(zone);
    }
  }

  private static void exits(JournalReads j, String owner) throws Exception {
    Printed nobody = history(j, "--owner", "nobody-" + owner);
    assertEquals(ExitCodes.FAILED, nobody.exit());
    assertTrue(
        nobody.err(),
        nobody.err().contains("the journal never held an account or watch of nobody-"));
    assertEquals("", nobody.out());
    Printed noWatch = history(j, "--owner", owner, "--watch", "never");
    assertEquals(ExitCodes.FAILED, noWatch.exit());
    assertTrue(noWatch.err(), noWatch.err().contains("never held a watch " + owner + "/never"));
    assertEquals(ExitCodes.USAGE, history(j, "--trigger", "scheduled").exit());
    assertEquals(ExitCodes.USAGE, history(j, "--delivery", "pending").exit());
    assertEquals(ExitCodes.USAGE, history(j, "--channel", "pigeon").exit());
    assertEquals(ExitCodes.USAGE, history(j, "--after", "not-a-cursor").exit());
    Printed reverseAfter =
        history(j, "--owner", owner, "--reverse", "--after", history(j, "--owner", owner).cursor());
    assertEquals(ExitCodes.USAGE, reverseAfter.exit());
    assertEquals(ExitCodes.USAGE, history(j, "--json", "--csv").exit());
    assertEquals(ExitCodes.USAGE, history(j, "--local", "--utc").exit());
    assertEquals(ExitCodes.USAGE, history(j, "--since", "yesterday").exit());
  }

  /**
   * Ten exports with the cursor while runs are recorded (some recorded after runs that started
   * later, some judged and delivered), then one after: every run once, each export in start order.
   */
  private static void exportsResume(JournalReads j, WatchEvents e) throws Exception {
    String owner = "e" + UUID.randomUUID().toString().substring(0, 8);
    Instant base = Instant.now().minus(Duration.ofHours(2));
    List<String> written = java.util.Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<Void> writing =
        CompletableFuture.runAsync(
            () -> {
              try {
                for (int i = 0; i < 120; i++) {
                  String watch = List.of("p", "q", "r").get(i % 3);
                  // every fifth run ran long: it started before the two runs written before it
                  Instant start = base.plusSeconds(i * 10L - (i % 5 == 4 ? 25 : 0));
                  String id = "run" + i;
                  if (i % 4 == 0) {
                    e.write(
                        owner,
                        watch,
                        judged(
                            record(
                                id,
                                RunRecord.TRIGGER_SCHEDULE,
                                RunRecord.ALERT,
                                start,
                                "s",
                                null,
                                null,
                                "threshold",
                                List.of(),
                                List.of()),
                            "telegram"));
                    e.write(
                        owner,
                        watch,
                        delivered(id, "telegram", RunRecord.DeliveryRecord.DELIVERED));
                  } else {
                    e.write(owner, watch, recorded(quiet(id, start)));
                  }
                  written.add(id);
                  Thread.sleep(15);
                }
              } catch (Exception failure) {
                throw new java.util.concurrent.CompletionException(failure);
              }
            });
    List<String> exported = new ArrayList<>();
    String cursor = null;
    int exports = 0;
    while (exports < 10 || !writing.isDone()) {
      List<String> args = new ArrayList<>(List.of("--owner", owner, "--json-lines"));
      if (cursor != null) args.addAll(List.of("--after", cursor));
      Printed export = history(j, args.toArray(String[]::new));
      if (export.exit() == ExitCodes.FAILED) continue; // nothing written yet
      assertEquals(export.err(), ExitCodes.OK, export.exit());
      List<Instant> starts =
          export.lines().stream()
              .map(l -> Instant.parse(json(l).get("startedAt").asText()))
              .toList();
      assertEquals(starts.stream().sorted().toList(), starts);
      exported.addAll(export.runs());
      cursor = export.cursor();
      exports++;
      Thread.sleep(100);
    }
    writing.get(60, TimeUnit.SECONDS);
    settle();
    exported.addAll(history(j, "--owner", owner, "--json-lines", "--after", cursor).runs());
    assertTrue("exports while writing: " + exports, exports >= 10);
    assertEquals("nothing doubled", exported.size(), new HashSet<>(exported).size());
    assertEquals("nothing missed", new HashSet<>(written), new HashSet<>(exported));

    // a line's own cursor resumes right after it
    List<String> lines = history(j, "--owner", owner, "--json-lines").lines();
    String third = json(lines.get(2)).get("cursor").asText();
    List<String> rest = history(j, "--owner", owner, "--json-lines", "--after", third).runs();
    assertEquals(
        lines.subList(3, lines.size()).stream().map(l -> json(l).get("runId").asText()).toList(),
        rest);
  }

  /** Following from a cursor, then resuming after the last line followed. */
  private static void followResumes(JournalReads j, WatchEvents e) throws Exception {
    String owner = "f" + UUID.randomUUID().toString().substring(0, 8);
    Instant now = Instant.now();
    e.write(owner, "w", recorded(quiet("f1", now.minusSeconds(60))));
    settle();
    String cursor = history(j, "--owner", owner).cursor();

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine cli =
        Cli.commandLine(Map.of(), o, new PrintStream(err, true, StandardCharsets.UTF_8));
    HistoryCommand command =
        (HistoryCommand)
            cli.parseArgs(
                    "history", "--owner", owner, "--follow", "--json-lines", "--after", cursor)
                .subcommand()
                .commandSpec()
                .userObject();
    command.checkOptions();
    Thread following =
        new Thread(
            () -> {
              try {
                command.replay(j);
              } catch (Exception stopped) {
                // interrupted at the end of the test
              }
            });
    following.start();
    try {
      // the past is read (its end cursor printed) before these runs are recorded
      long started = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!err.toString(StandardCharsets.UTF_8).contains("cursor: ")
          && System.nanoTime() < started) Thread.sleep(50);
      e.write(owner, "w", recorded(quiet("f2", now.minusSeconds(30))));
      e.write(
          owner,
          "v",
          judged(
              record(
                  "f3",
                  RunRecord.TRIGGER_MANUAL,
                  RunRecord.ALERT,
                  now.minusSeconds(40),
                  "s",
                  null,
                  null,
                  "threshold",
                  List.of(),
                  List.of()),
              "telegram"));
      e.write(owner, "w", recorded(quiet("f4", now)));
      e.write(owner, "v", delivered("f3", "telegram", RunRecord.DeliveryRecord.DELIVERED));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (out.toString(StandardCharsets.UTF_8).split("\n").length < 3
          && System.nanoTime() < deadline) Thread.sleep(100);
      List<JsonNode> followed =
          List.of(out.toString(StandardCharsets.UTF_8).split("\n")).stream()
              .map(HistoryPrintouts::json)
              .toList();
      // in the order recorded: the judged run before the one recorded while it was delivered
      assertEquals(
          List.of("f2", "f3", "f4"), followed.stream().map(r -> r.get("runId").asText()).toList());
      assertEquals("delivered", followed.get(1).get("deliveries").get(0).get("state").asText());
      settle();
      String last = followed.get(2).get("cursor").asText();
      assertEquals(List.of(), history(j, "--owner", owner, "--after", last).runs());
      String second = followed.get(1).get("cursor").asText();
      assertEquals(List.of("f4"), history(j, "--owner", owner, "--after", second).runs());
      e.write(owner, "v", recorded(quiet("f5", now.plusSeconds(1))));
      settle();
      assertEquals(List.of("f5"), history(j, "--owner", owner, "--after", last).runs());
    } finally {
      following.interrupt();
    }
  }
}
