package io.periscope.http;

import static io.periscope.testing.ApiClient.error;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.FakeJudge;
import io.periscope.testing.FakeUpstream;
import io.periscope.testing.InProcessService;
import io.periscope.testing.NeedsPostgres;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.mockwebserver.MockResponse;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * What a run judged and what the model calls took, over real HTTP: a run's whole record, the
 * watch's, the account's and every account's usage, a priced model's cost and an unpriced one's
 * null, the days validated, and the usage kept across a restart on PostgreSQL.
 */
public class UsageRoutesTest {
  private static final Pattern LISTED_URL = Pattern.compile("\nURL: (http\\S+)");

  /** Verdict calls: 1,000 tokens in (200 cached), 100 out; explanations 300 in, 60 out. */
  private static final int IN = 1000;

  private static final int CACHED = 200;
  private static final int OUT = 100;

  static FakeUpstream feeds;
  static FakeJudge model;
  static InProcessService service;
  static String root;
  static String alice;
  static String bob;

  /** Met, citing the first item listed; an explanation to any other question. */
  static MockResponse answer(FakeJudge.Question q) {
    if (!q.prompt().startsWith("Condition: "))
      return FakeJudge.answer(Json.text(Map.of("explanation", "It watches a feed.")), 300, 0, 60);
    Matcher first = LISTED_URL.matcher(q.prompt());
    return FakeJudge.verdict(
        true, first.find() ? List.of(first.group(1)) : List.of(), IN, CACHED, OUT);
  }

  static Config config(Config journal) {
    return ConfigFactory.parseMap(
            Map.of(
                "periscope.fetch.allow-private-networks",
                true,
                "periscope.model.base-url",
                model.baseUrl(),
                "periscope.model.api-keys",
                "sk-usage-routes-test-0001"))
        .withFallback(journal)
        .resolve();
  }

  @BeforeClass
  public static void start() throws Exception {
    feeds = new FakeUpstream(Duration.ZERO, Duration.ZERO, false, 3);
    model = new FakeJudge(UsageRoutesTest::answer);
    service = new InProcessService(config(TestJournals.h2()));
    root = service.signedIn("root", "admin");
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
    // verdicts priced per million tokens: input 1, cached input 0.5, output 2; assistance not
    json(
        service.call(
            "PUT",
            "/admin/model",
            root,
            """
            {"verdicts": {"provider": "openai", "baseUrl": "%1$s", "model": "judge",
               "price": {"inputPerMillion": 1, "cachedInputPerMillion": 0.5,
                         "outputPerMillion": 2}},
             "assistance": {"provider": "openai", "baseUrl": "%1$s", "model": "helper"}}\
            """
                .formatted(model.baseUrl())),
        200);
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    model.close();
    feeds.close();
  }

  static String watch(String id) {
    return TestWatches.body(id).feed(feeds.feedUrl(id)).json();
  }

  /** The verdict's cost at the prices above: (800 × 1 + 200 × 0.5 + 100 × 2) / 10^6. */
  static final BigDecimal VERDICT_COST = new BigDecimal("0.0011");

  @Test
  public void aRunsWholeRecordShowsWhatItJudgedAndTheListStaysLean() throws Exception {
    json(service.call("POST", "/watches", alice, watch("judged")), 201);
    JsonNode run = json(service.call("POST", "/watches/judged/run", alice, null), 200);
    String runId = run.at("/result/runId").asText();

    JsonNode whole = json(service.call("GET", "/watches/judged/runs/" + runId, alice, null), 200);
    assertEquals("judged", whole.get("watchId").asText());
    assertEquals(runId, whole.get("runId").asText());
    JsonNode items = whole.at("/judged/items");
    assertFalse("the feed's items were judged", items.isEmpty());
    JsonNode item = items.get(0);
    assertTrue(item.get("url").asText(), item.get("url").asText().startsWith(feeds.base()));
    assertEquals("rss:" + feeds.feedUrl("judged"), item.get("source").asText());
    assertTrue(item.get("key").asText().startsWith("rss:" + feeds.feedUrl("judged") + " "));
    assertTrue("cited", item.get("cited").asBoolean());
    assertTrue(item.get("excerpt").asText().length() <= 1000);
    assertTrue(item.has("published"));
    assertEquals(0, whole.at("/judged/setAside").size());
    assertEquals(1, whole.at("/usage/calls").asInt());
    assertEquals(IN, whole.at("/usage/inputTokens").asLong());
    assertEquals(CACHED, whole.at("/usage/cachedInputTokens").asLong());
    assertEquals(OUT, whole.at("/usage/outputTokens").asLong());
    assertEquals(VERDICT_COST, whole.at("/usage/cost").decimalValue());

    JsonNode listed =
        json(service.call("GET", "/watches/judged/runs", alice, null), 200).at("/runs/0");
    assertEquals(runId, listed.get("runId").asText());
    assertFalse("the list is lean", listed.has("judged"));
    assertEquals("but keeps the usage", 1, listed.at("/usage/calls").asInt());

    error(service.call("GET", "/watches/judged/runs/" + runId, bob, null), 404);
    error(service.call("GET", "/watches/judged/runs/no-such-run", alice, null), 404);
    error(service.call("GET", "/watches/never/runs/" + runId, alice, null), 404);
  }

  @Test
  public void usageIsSeriesByDayForAWatchAnAccountAndEveryAccount() throws Exception {
    String carol = service.signedIn("carol", "user");
    json(service.call("POST", "/watches", carol, watch("costly")), 201);
    json(service.call("POST", "/watches/costly/run", carol, null), 200);
    json(service.call("POST", "/watches/costly/run", carol, null), 200);
    json(service.call("POST", "/watches/costly/explain", carol, null), 200);
    // a draft the model answers unusably, twice: no draft, but both calls took tokens
    error(
        service.call("POST", "/watches/draft", carol, "{\"description\": \"Acme launches\"}"), 502);
    String today = LocalDate.now(ZoneOffset.UTC).toString();

    JsonNode ofWatch = json(service.call("GET", "/watches/costly/usage?days=7", carol, null), 200);
    assertEquals(7, ofWatch.get("days").size());
    JsonNode last = ofWatch.get("days").get(6);
    assertEquals(today, last.get("date").asText());
    assertEquals("two verdicts and the explanation", 3, last.get("calls").asInt());
    assertEquals(2 * IN + 300, last.get("inputTokens").asLong());
    assertEquals(2 * OUT + 60, last.get("outputTokens").asLong());
    assertTrue("the unpriced explanation has no cost, none is guessed", last.get("cost").isNull());
    assertEquals(0, ofWatch.get("days").get(0).get("calls").asInt());
    assertEquals(BigDecimal.ZERO, ofWatch.get("days").get(0).get("cost").decimalValue());
    assertEquals(3, ofWatch.at("/month/calls").asInt());

    JsonNode mine = json(service.call("GET", "/account/usage", carol, null), 200);
    assertEquals("30 days unless asked", 30, mine.get("days").size());
    assertEquals(5, mine.at("/total/calls").asInt());
    assertEquals("costly", mine.at("/watches/0/watchId").asText());
    assertEquals(3, mine.at("/watches/0/calls").asInt());
    assertEquals("drafts belong to no watch", "", mine.at("/watches/1/watchId").asText());
    assertEquals(2, mine.at("/watches/1/calls").asInt());
    assertEquals(600, mine.at("/watches/1/inputTokens").asLong());

    JsonNode all = json(service.call("GET", "/admin/usage?days=1", root, null), 200);
    JsonNode line = null;
    for (JsonNode a : all.get("accounts"))
      if (a.get("accountId").asText().equals("carol")) line = a;
    assertEquals(5, line.at("/total/calls").asInt());
    error(service.call("GET", "/admin/usage", carol, null), 403);
    error(service.call("GET", "/watches/costly/usage", bob, null), 404);
  }

  @Test
  public void daysOutsideOneTo366Are400() throws Exception {
    for (String days : List.of("0", "367", "-1", "seven", "1.5")) {
      JsonNode refused =
          error(service.call("GET", "/account/usage?days=" + days, alice, null), 400);
      assertEquals("[\"query\",\"days\"]", refused.at("/issues/0/path").toString());
    }
    json(service.call("GET", "/account/usage?days=366", alice, null), 200);
    error(service.call("GET", "/admin/usage?days=0", root, null), 400);
  }

  @Test
  @Category(NeedsPostgres.class)
  public void usageSurvivesARestartOnPostgres() throws Exception {
    String accountId = "owner-" + UUID.randomUUID().toString().substring(0, 8);
    JsonNode before;
    try (InProcessService first = new InProcessService(config(TestJournals.postgres()))) {
      first.account(accountId, "user", "a-passphrase");
      String token = first.login(accountId, "a-passphrase");
      json(first.call("POST", "/watches", token, watch("kept")), 201);
      String runId =
          json(first.call("POST", "/watches/kept/run", token, null), 200)
              .at("/result/runId")
              .asText();
      before = json(first.call("GET", "/watches/kept/runs/" + runId, token, null), 200);
      assertFalse(before.at("/judged/items").isEmpty());
      assertEquals(
          1,
          json(first.call("GET", "/account/usage", token, null), 200).at("/total/calls").asInt());
    }
    // another node takes the account's entities over from the journal
    try (InProcessService second = new InProcessService(config(TestJournals.postgres()))) {
      String token = second.login(accountId, "a-passphrase");
      JsonNode usage = json(second.call("GET", "/watches/kept/usage?days=2", token, null), 200);
      assertEquals(1, usage.at("/total/calls").asInt());
      assertEquals(IN, usage.at("/total/inputTokens").asLong());
      assertEquals(OUT, usage.at("/month/outputTokens").asLong());
      JsonNode after =
          json(
              second.call("GET", "/watches/kept/runs/" + before.get("runId").asText(), token, null),
              200);
      assertEquals(before.get("judged"), after.get("judged"));
      assertEquals(before.get("usage"), after.get("usage"));
    }
  }
}
