package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.Test;

public class WatchValidatorTest {
  /**
   * A valid create body, with the display-only fields a client may send (owner, notes, rationale).
   */
  static ObjectNode body() {
    return (ObjectNode)
        tree(
            """
            {"id": "acme", "name": "Acme", "owner": "mallory", "notes": "display only",
             "sources": [{"type": "search", "value": "acme launch", "trust": "official", \
            "recencyDays": 7,
                          "rationale": "display only"},
                         {"type": "rss", "value": "https://example.org/feed.xml"}],
             "schedule": "0 */6 * * *", "condition": "Acme sets a date", "channels": ["telegram"],
             "threshold": 0.8, "weakThreshold": 0.5, "enabled": false}\
            """);
  }

  static JsonNode tree(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static ObjectNode source(ObjectNode body, int i) {
    return (ObjectNode) body.get("sources").get(i);
  }

  static Watch valid(Consumer<ObjectNode> change) {
    ObjectNode b = body();
    change.accept(b);
    return WatchValidator.validate(b, null, "alice", ZoneId.of("UTC"));
  }

  /** The paths of the issues the changed body produces; it must be refused. */
  static List<List<Object>> issuePaths(Consumer<ObjectNode> change) {
    ObjectNode b = body();
    change.accept(b);
    ValidationException e =
        assertThrows(
            ValidationException.class,
            () -> WatchValidator.validate(b, null, "alice", ZoneId.of("UTC")));
    return e.issues().stream().map(Issue::path).toList();
  }

  static List<List<Object>> at(Object... path) {
    return List.of(List.of(path));
  }

  // ---- valid bodies
  // ------------------------------------------------------------------------------

  @Test
  public void aFullBodyBecomesTheStoredWatchOwnedByTheCaller() {
    assertEquals(
        new Watch(
            "acme",
            "alice",
            "Acme",
            List.of(
                new WatchSource("search", "acme launch", "official", 7),
                new WatchSource("rss", "https://example.org/feed.xml", null, null)),
            "0 */6 * * *",
            "Acme sets a date",
            List.of("telegram"),
            0.8,
            0.5,
            false,
            "UTC"),
        WatchValidator.validate(body(), null, "alice", ZoneId.of("UTC")));
  }

  @Test
  public void aPageSourceKeepsItsSelectorAndIgnoreSelectors() {
    Watch w =
        valid(
            b ->
                ((com.fasterxml.jackson.databind.node.ArrayNode) b.get("sources"))
                    .add(
                        tree(
                            """
                            {"type": "page", "value": "https://acme.example/pricing",
                             "selector": " #plans tr ", "ignore": [".stamp", "time", ".stamp"]}\
                            """)));
    assertEquals(
        new WatchSource(
            "page",
            "https://acme.example/pricing",
            null,
            null,
            "#plans tr",
            List.of(".stamp", "time")),
        w.sources().get(2));
    assertNull("no selector on a feed", w.sources().get(1).selector());
  }

  @Test
  public void aPageSourceWithoutSelectorWatchesTheMainContent() {
    Watch w = valid(b -> source(b, 1).put("type", "page"));
    assertEquals(
        new WatchSource("page", "https://example.org/feed.xml", null, null), w.sources().get(1));
  }

  @Test
  public void aPageSourcesUrlSelectorsAndTheirCountAreChecked() {
    assertEquals(
        at("sources", 1, "value"),
        issuePaths(b -> source(b, 1).put("type", "page").put("value", "ftp://acme.example/")));
    assertEquals(
        at("sources", 1, "selector"),
        issuePaths(b -> source(b, 1).put("type", "page").put("selector", "div >> [")));
    assertEquals(
        at("sources", 1, "selector"),
        issuePaths(b -> source(b, 1).put("type", "page").put("selector", "p".repeat(501))));
    assertEquals(
        at("sources", 1, "ignore", 1),
        issuePaths(b -> source(b, 1).put("type", "page").set("ignore", tree("[\".ok\", \"a[\"]"))));
    assertEquals(
        at("sources", 1, "ignore", 0),
        issuePaths(b -> source(b, 1).put("type", "page").set("ignore", tree("[3]"))));
    StringBuilder many = new StringBuilder("[");
    for (int i = 0; i <= WatchValidator.MAX_IGNORE; i++)
      many.append(i == 0 ? "" : ",").append("\"p\"");
    assertEquals(
        at("sources", 1, "ignore"),
        issuePaths(b -> source(b, 1).put("type", "page").set("ignore", tree(many + "]"))));
  }

  @Test
  public void absentChannelsMeanNone() {
    assertEquals(List.of(), valid(b -> b.remove("channels")).channels());
  }

  @Test
  public void absentEnabledMeansTrue() {
    assertTrue(valid(b -> b.remove("enabled")).enabled());
  }

  @Test
  public void absentWeakThresholdIsNull() {
    assertNull(valid(b -> b.remove("weakThreshold")).weakThreshold());
  }

  @Test
  public void aNullWeakThresholdIsAcceptedAsNone() {
    assertNull(valid(b -> b.putNull("weakThreshold")).weakThreshold());
  }

  @Test
  public void fieldsTheSchemaDoesNotOwnAreNeverStored() {
    Watch w = valid(b -> b.put("colour", "blue"));
    assertEquals("the owner comes from the caller, never the body", "alice", w.owner());
    JsonNode stored = Json.MAPPER.valueToTree(w);
    assertFalse(stored.has("notes"));
    assertFalse(stored.has("colour"));
    assertFalse(stored.get("sources").get(0).has("rationale"));
  }

  @Test
  public void onReplaceThePathIdWinsOverTheBodyId() {
    assertEquals(
        "from-path", WatchValidator.validate(body(), "from-path", "alice", ZoneId.of("UTC")).id());
  }

  @Test
  public void onReplaceTheBodyNeedsNoId() {
    ObjectNode b = body();
    b.remove("id");
    assertEquals(
        "from-path", WatchValidator.validate(b, "from-path", "alice", ZoneId.of("UTC")).id());
  }

  @Test
  public void theScheduleIsStoredWithItsWhitespaceNormalized() {
    assertEquals("15 8 * * 1", valid(b -> b.put("schedule", " 15  8 * * 1 ")).schedule());
  }

  @Test
  public void everyChannelIdentifierOfTheOperatorContractIsAccepted() {
    List<String> all =
        List.of(
            "telegram",
            "telegram:-100123",
            "telegram:@mychannel",
            "email:a@b.org",
            "webhook:https://x.org/h",
            "ntfy:https://ntfy.sh/topic",
            "slack:https://hooks.slack.com/x",
            "discord:https://discord.com/api/webhooks/x",
            "push",
            "ntfy:https://tk_abc123@ntfy.example.org/alerts",
            "ntfy:https://me:pw@ntfy.example.org/alerts",
            "gotify:https://AbC.dEf-123@gotify.example.org",
            "gotify:https://AbCdEf@home.example.org/gotify/",
            "matrix:https://syt_token@matrix.example.org/!room:example.org",
            "pushover:" + "u".repeat(30) + "@" + "a".repeat(30),
            "apprise:https://apprise.example.org/notify/periscope");
    Watch w =
        valid(
            b -> {
              ArrayNode channels = b.putArray("channels");
              all.forEach(channels::add);
            });
    assertEquals(all, w.channels());
  }

  // ---- one rule, one issue at its path ----------------------------------------------------------

  @Test
  public void theIdIsRequiredOnCreate() {
    assertEquals(at("id"), issuePaths(b -> b.remove("id")));
  }

  @Test
  public void anIdOutsideThePatternIsRefused() {
    for (String bad : List.of("has space", "a/b", "x".repeat(65))) {
      assertEquals(bad, at("id"), issuePaths(b -> b.put("id", bad)));
    }
  }

  @Test
  public void aMissingNameIsRefused() {
    assertEquals(at("name"), issuePaths(b -> b.remove("name")));
  }

  @Test
  public void aBlankNameIsRefused() {
    assertEquals(at("name"), issuePaths(b -> b.put("name", "   ")));
  }

  @Test
  public void aMissingConditionIsRefused() {
    assertEquals(at("condition"), issuePaths(b -> b.remove("condition")));
  }

  @Test
  public void aBlankConditionIsRefused() {
    assertEquals(at("condition"), issuePaths(b -> b.put("condition", "")));
  }

  @Test
  public void missingSourcesAreRefused() {
    assertEquals(at("sources"), issuePaths(b -> b.remove("sources")));
  }

  @Test
  public void sourcesThatAreNotAnArrayAreRefused() {
    assertEquals(at("sources"), issuePaths(b -> b.put("sources", "acme launch")));
  }

  @Test
  public void emptySourcesAreRefused() {
    assertEquals(at("sources"), issuePaths(b -> b.putArray("sources")));
  }

  @Test
  public void moreThan20SourcesAreRefused() {
    assertEquals(
        at("sources"),
        issuePaths(
            b -> {
              ArrayNode many = b.putArray("sources");
              for (int i = 0; i < 21; i++)
                many.addObject().put("type", "search").put("value", "q" + i);
            }));
  }

  @Test
  public void exactly20SourcesAreAccepted() {
    assertEquals(
        20,
        valid(
                b -> {
                  ArrayNode many = b.putArray("sources");
                  for (int i = 0; i < 20; i++)
                    many.addObject().put("type", "search").put("value", "q" + i);
                })
            .sources()
            .size());
  }

  @Test
  public void anUnknownSourceTypeIsRefused() {
    assertEquals(
        at("sources", 0, "type"), issuePaths(b -> source(b, 0).put("type", "carrier-pigeon")));
  }

  @Test
  public void anEmptySourceValueIsRefused() {
    assertEquals(at("sources", 0, "value"), issuePaths(b -> source(b, 0).put("value", "  ")));
  }

  @Test
  public void anRssValueMustBeAnHttpUrl() {
    for (String bad : List.of("ftp://example.org/feed.xml", "example.org/feed.xml", "not a url")) {
      assertEquals(bad, at("sources", 1, "value"), issuePaths(b -> source(b, 1).put("value", bad)));
    }
  }

  @Test
  public void recencyDaysOfZeroIsRefused() {
    assertEquals(
        at("sources", 0, "recencyDays"), issuePaths(b -> source(b, 0).put("recencyDays", 0)));
  }

  @Test
  public void fractionalRecencyDaysAreRefused() {
    assertEquals(
        at("sources", 0, "recencyDays"), issuePaths(b -> source(b, 0).put("recencyDays", 1.5)));
  }

  @Test
  public void recencyDaysAsAStringAreRefused() {
    assertEquals(
        at("sources", 0, "recencyDays"), issuePaths(b -> source(b, 0).put("recencyDays", "7")));
  }

  @Test
  public void aTrustOutsideTheKnownTiersIsRefused() {
    assertEquals(at("sources", 0, "trust"), issuePaths(b -> source(b, 0).put("trust", "gospel")));
  }

  @Test
  public void everyKnownTrustTierIsAccepted() {
    for (String tier : List.of("official", "established", "community", "unverified")) {
      assertEquals(tier, valid(b -> source(b, 0).put("trust", tier)).sources().get(0).trust());
    }
  }

  @Test
  public void aTimeZoneIsAnIanaNameAndTheDefaultWhenAbsent() {
    assertEquals("Europe/Berlin", valid(b -> b.put("timeZone", "Europe/Berlin")).timeZone());
    assertEquals("UTC", valid(b -> b.remove("timeZone")).timeZone());
    assertEquals("UTC", valid(b -> b.putNull("timeZone")).timeZone());
    ObjectNode b = body();
    assertEquals(
        "America/New_York",
        WatchValidator.validate(b, null, "alice", ZoneId.of("America/New_York")).timeZone());
    for (String bad : List.of("CEST", "+02:00", "europe/berlin", ""))
      assertEquals(bad, at("timeZone"), issuePaths(c -> c.put("timeZone", bad)));
    assertEquals(at("timeZone"), issuePaths(c -> c.put("timeZone", 2)));
  }

  @Test
  public void quietHoursAndADigestAreKeptAndAbsentByDefault() {
    Watch plain = valid(b -> {});
    assertNull(plain.quietHours());
    assertNull(plain.digest());
    Watch quiet =
        valid(
            b -> {
              b.putObject("quietHours").put("start", "22:00").put("end", "07:00");
              b.put("digest", "daily");
            });
    assertEquals(new io.periscope.quiet.QuietHours("22:00", "07:00", null), quiet.quietHours());
    assertEquals("daily", quiet.digest());
    assertEquals(
        "Europe/Berlin",
        valid(
                b ->
                    b.putObject("quietHours")
                        .put("start", "12:00")
                        .put("end", "13:00")
                        .put("timeZone", "Europe/Berlin"))
            .quietHours()
            .timeZone());
    assertNull("none is no digest", valid(b -> b.put("digest", "none")).digest());
    assertEquals("hourly", valid(b -> b.put("digest", "hourly")).digest());
  }

  @Test
  public void badQuietHoursOrDigestAreRefusedNamingTheField() {
    for (String bad : List.of("7:00", "24:00", "22:60", "22h", ""))
      assertEquals(
          bad,
          at("quietHours", "start"),
          issuePaths(b -> b.putObject("quietHours").put("start", bad).put("end", "07:00")));
    assertEquals(
        at("quietHours", "end"), issuePaths(b -> b.putObject("quietHours").put("start", "22:00")));
    assertEquals(
        "an empty window",
        at("quietHours", "end"),
        issuePaths(b -> b.putObject("quietHours").put("start", "22:00").put("end", "22:00")));
    assertEquals(
        at("quietHours", "timeZone"),
        issuePaths(
            b ->
                b.putObject("quietHours")
                    .put("start", "22:00")
                    .put("end", "07:00")
                    .put("timeZone", "CEST")));
    assertEquals(at("quietHours"), issuePaths(b -> b.put("quietHours", "22:00-07:00")));
    assertEquals(at("digest"), issuePaths(b -> b.put("digest", "weekly")));
    assertEquals(at("digest"), issuePaths(b -> b.put("digest", 1)));
  }

  @Test
  public void aSixFieldCronIsRefused() {
    assertEquals(at("schedule"), issuePaths(b -> b.put("schedule", "0 0 */6 * * *")));
  }

  @Test
  public void aScheduleInWordsIsRefused() {
    assertEquals(at("schedule"), issuePaths(b -> b.put("schedule", "every tuesday")));
  }

  @Test
  public void aCronWithAnOutOfRangeFieldIsRefused() {
    assertEquals(at("schedule"), issuePaths(b -> b.put("schedule", "61 * * * *")));
  }

  @Test
  public void aThresholdThatIsNotANumberIsRefused() {
    assertEquals(at("threshold"), issuePaths(b -> b.put("threshold", "high")));
  }

  @Test
  public void aThresholdAboveOneIsRefused() {
    assertEquals(at("threshold"), issuePaths(b -> b.put("threshold", 1.5)));
  }

  @Test
  public void aNegativeThresholdIsRefused() {
    assertEquals(at("threshold"), issuePaths(b -> b.put("threshold", -0.1)));
  }

  @Test
  public void aWeakThresholdEqualToTheThresholdIsRefused() {
    assertEquals(at("weakThreshold"), issuePaths(b -> b.put("weakThreshold", 0.8)));
  }

  @Test
  public void aWeakThresholdAboveTheThresholdIsRefused() {
    assertEquals(at("weakThreshold"), issuePaths(b -> b.put("weakThreshold", 0.9)));
  }

  @Test
  public void channelsOutsideTheOperatorContractAreRefusedAtTheirIndex() {
    for (String bad :
        List.of(
            "carrier-pigeon:coop-1",
            "webhook:ftp://x",
            "email:nope",
            "email:m@[10.0.0.1]",
            "email:\"Mallory\"<m@example.org>",
            "email:m@example.org,n@example.org",
            "telegram:abc",
            "gotify:https://gotify.example.org",
            "matrix:https://matrix.example.org/!room:example.org",
            "matrix:https://token@matrix.example.org/#alias:example.org",
            "matrix:https://token@matrix.example.org/",
            "pushover:" + "u".repeat(30),
            "pushover:short@" + "a".repeat(30),
            "apprise:ftp://apprise.example.org/notify")) {
      assertEquals(
          bad, at("channels", 1), issuePaths(b -> b.putArray("channels").add("telegram").add(bad)));
    }
  }

  @Test
  public void enabledMustBeABoolean() {
    assertEquals(at("enabled"), issuePaths(b -> b.put("enabled", "yes")));
  }

  @Test
  public void aBodyThatIsNotAnObjectIsRefused() {
    assertThrows(
        ValidationException.class,
        () -> WatchValidator.validate(tree("[1]"), null, "alice", ZoneId.of("UTC")));
  }

  // ---- all at once
  // -------------------------------------------------------------------------------

  @Test
  public void everyProblemIsListedAtOnce() {
    List<List<Object>> paths =
        issuePaths(
            b -> {
              b.put("name", "")
                  .put("schedule", "every tuesday")
                  .put("threshold", "high")
                  .put("enabled", "yes");
              source(b, 0).put("type", "carrier-pigeon");
              b.putArray("channels").add("push").add("email:nope");
            });
    Set<List<Object>> expected =
        Set.of(
            List.of("name"),
            List.of("schedule"),
            List.of("threshold"),
            List.of("enabled"),
            List.of("sources", 0, "type"),
            List.of("channels", 1));
    assertEquals(expected, paths.stream().collect(Collectors.toSet()));
    assertEquals("one issue per problem", expected.size(), paths.size());
  }

  @Test
  public void anIdIsTakenExactlyAsSentNeverTrimmed() throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode body =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            io.periscope.json.Json.MAPPER.readTree(
                "{\"id\": \" acme \", \"name\": \"n\", \"condition\": \"c\", \"sources\":"
                    + " [{\"type\": \"search\", \"value\": \"q\"}], \"schedule\": \"0 * * * *\","
                    + " \"threshold\": 0.5}");
    var issues =
        org.junit.Assert.assertThrows(
                io.periscope.json.ValidationException.class,
                () -> WatchValidator.validate(body, null, "alice", ZoneId.of("UTC")))
            .issues();
    org.junit.Assert.assertEquals(1, issues.size());
    org.junit.Assert.assertEquals(java.util.List.of("id"), issues.get(0).path());
  }
}
