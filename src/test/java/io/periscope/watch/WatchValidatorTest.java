package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import java.util.List;
import java.util.function.Consumer;
import org.junit.Test;

public class WatchValidatorTest {
  static ObjectNode body() {
    try {
      return (ObjectNode) Json.MAPPER.readTree("""
          {"id": "acme", "name": "Acme", "owner": "mallory", "notes": "display only",
           "sources": [{"type": "search", "value": "acme launch", "trust": "official", "recencyDays": 7,
                        "rationale": "display only"},
                       {"type": "rss", "value": "https://example.org/feed.xml"}],
           "schedule": "0 */6 * * *", "condition": "Acme sets a date", "channels": ["telegram"],
           "threshold": 0.8, "weakThreshold": 0.5, "enabled": false}""");
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static List<Issue> issuesOf(Consumer<ObjectNode> change) {
    ObjectNode b = body();
    change.accept(b);
    return assertThrows(ValidationException.class, () -> WatchValidator.validate(b, null, "alice")).issues();
  }

  static void assertIssueAt(List<Issue> issues, Object... path) {
    assertTrue("expected an issue at " + List.of(path) + " in " + issues,
        issues.stream().anyMatch(i -> i.path().equals(List.of(path))));
  }

  @Test
  public void aFullBodyBecomesTheStoredWatchWithTheCallerAsOwner() {
    Watch w = WatchValidator.validate(body(), null, "alice");
    assertEquals(new Watch("acme", "alice", "Acme",
        List.of(new Source("search", "acme launch", "official", 7), new Source("rss", "https://example.org/feed.xml", null, null)),
        "0 */6 * * *", "Acme sets a date", List.of("telegram"), 0.8, 0.5, false), w);
  }

  @Test
  public void optionalFieldsTakeTheirDefaults() {
    ObjectNode b = body();
    b.remove(List.of("channels", "enabled", "weakThreshold"));
    Watch w = WatchValidator.validate(b, null, "alice");
    assertEquals(List.of(), w.channels());
    assertTrue(w.enabled());
    assertNull(w.weakThreshold());
    b.putNull("weakThreshold");
    assertNull(WatchValidator.validate(b, null, "alice").weakThreshold());
  }

  @Test
  public void onReplaceThePathIdWins() {
    assertEquals("from-path", WatchValidator.validate(body(), "from-path", "alice").id());
  }

  @Test
  public void requiredFieldsAreNamed() {
    List<Issue> issues = issuesOf(b -> b.remove(List.of("id", "name", "sources", "schedule", "condition", "threshold")));
    for (String field : List.of("id", "name", "sources", "schedule", "condition", "threshold")) {
      assertIssueAt(issues, field);
    }
  }

  @Test
  public void idAndTextRules() {
    assertIssueAt(issuesOf(b -> b.put("id", "has space")), "id");
    assertIssueAt(issuesOf(b -> b.put("id", "x".repeat(65))), "id");
    assertIssueAt(issuesOf(b -> b.put("name", "  ")), "name");
    assertIssueAt(issuesOf(b -> b.put("condition", 12)), "condition");
  }

  @Test
  public void sourceRules() {
    assertIssueAt(issuesOf(b -> b.put("sources", "acme")), "sources");
    assertIssueAt(issuesOf(b -> b.putArray("sources")), "sources");
    assertIssueAt(issuesOf(b -> ((ObjectNode) b.get("sources").get(0)).put("type", "carrier-pigeon")), "sources", 0, "type");
    assertIssueAt(issuesOf(b -> ((ObjectNode) b.get("sources").get(0)).put("value", "")), "sources", 0, "value");
    assertIssueAt(issuesOf(b -> ((ObjectNode) b.get("sources").get(1)).put("value", "ftp://x.org/f")), "sources", 1, "value");
    assertIssueAt(issuesOf(b -> ((ObjectNode) b.get("sources").get(0)).put("recencyDays", 0)), "sources", 0, "recencyDays");
    assertIssueAt(issuesOf(b -> ((ObjectNode) b.get("sources").get(0)).put("recencyDays", 1.5)), "sources", 0, "recencyDays");
    assertIssueAt(issuesOf(b -> ((ObjectNode) b.get("sources").get(0)).put("recencyDays", "7")), "sources", 0, "recencyDays");
    assertIssueAt(issuesOf(b -> ((ObjectNode) b.get("sources").get(0)).put("trust", "gospel")), "sources", 0, "trust");
    assertIssueAt(issuesOf(b -> {
      var many = b.putArray("sources");
      for (int i = 0; i < 21; i++) many.addObject().put("type", "search").put("value", "q" + i);
    }), "sources");
  }

  @Test
  public void scheduleMustBeAFiveFieldCron() {
    assertIssueAt(issuesOf(b -> b.put("schedule", "every tuesday")), "schedule");
    assertIssueAt(issuesOf(b -> b.put("schedule", "0 0 */6 * * *")), "schedule");
    assertIssueAt(issuesOf(b -> b.put("schedule", "61 * * * *")), "schedule");
    assertEquals("15 8 * * 1", WatchValidator.validate(body().put("schedule", " 15  8 * * 1 "), null, "a").schedule());
  }

  @Test
  public void thresholdsAreFractionsWithTheWeakOneBelow() {
    assertIssueAt(issuesOf(b -> b.put("threshold", "high")), "threshold");
    assertIssueAt(issuesOf(b -> b.put("threshold", 1.5)), "threshold");
    assertIssueAt(issuesOf(b -> b.put("threshold", -0.1)), "threshold");
    assertIssueAt(issuesOf(b -> b.put("weakThreshold", 0.8)), "weakThreshold");
  }

  @Test
  public void channelsFollowTheOperatorContract() {
    ObjectNode ok = body();
    var channels = ok.putArray("channels");
    for (String c : List.of("telegram", "telegram:-100123", "telegram:@mychannel", "email:a@b.org",
        "webhook:https://x.org/h", "ntfy:https://ntfy.sh/topic", "slack:https://hooks.slack.com/x",
        "discord:https://discord.com/api/webhooks/x", "push")) {
      channels.add(c);
    }
    assertEquals(9, WatchValidator.validate(ok, null, "alice").channels().size());
    List<Issue> issues = issuesOf(b -> b.putArray("channels").add("telegram").add("carrier-pigeon:coop-1")
        .add("webhook:ftp://x").add("email:nope").add("telegram:abc"));
    for (int i = 1; i <= 4; i++) assertIssueAt(issues, "channels", i);
    assertEquals(4, issues.size());
  }

  @Test
  public void enabledMustBeABoolean() {
    assertIssueAt(issuesOf(b -> b.put("enabled", "yes")), "enabled");
  }

  @Test
  public void everyProblemIsListedAtOnce() {
    List<Issue> issues = issuesOf(b -> b.put("name", "").put("schedule", "nope").put("threshold", 3).put("enabled", 1));
    assertEquals(4, issues.size());
  }

  @Test
  public void aBodyThatIsNotAnObjectIsRefused() throws Exception {
    assertThrows(ValidationException.class, () -> WatchValidator.validate(Json.MAPPER.readTree("[1]"), null, "a"));
  }
}
