package io.periscope.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.InProcessService;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.stream.IntStream;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The five assistance routes over real HTTP, against one loopback server playing an
 * OpenAI-compatible model and the Brave search API. The service's clock is held still and moved to
 * a fresh minute before each test, so each test has its own window of the AI limit.
 */
public class AssistRoutesTest {
  static final MockWebServer upstream = new MockWebServer();

  /**
   * The model's next answers: a content string, or a number for an HTTP error status. Empty: 500.
   */
  static final ConcurrentLinkedDeque<Object> modelAnswers = new ConcurrentLinkedDeque<>();

  static final ConcurrentLinkedDeque<JsonNode> modelRequests = new ConcurrentLinkedDeque<>();
  static final ConcurrentLinkedDeque<RecordedRequest> searchRequests =
      new ConcurrentLinkedDeque<>();
  static volatile int searchStatus = 200;
  static final MutableClock clock = new MutableClock(Instant.parse("2026-03-02T09:00:10Z"));
  static InProcessService service;
  static String alice;
  static String bob;

  static final String WATCH =
      """
      {"id": "%s", "name": "Acme launch", "sources": [{"type": "search", "value": "acme rocket \
      launch",
       "trust": "official"}], "schedule": "0 0 1 1 *", "condition": "Acme announces its launch \
      date",
       "channels": ["telegram", "webhook:https://hooks.example/secret-hook-token"], "threshold": \
      0.8,
       "weakThreshold": 0.5, "enabled": true}\
      """;

  static final String DRAFT =
      """
      {"name": "Acme launch", "condition": "Acme announces the date of its first rocket launch",
       "sources": [{"type": "search", "value": "acme rocket launch date", "trust": null, \
      "recencyDays": 7,
                    "rationale": "News of the date will be searchable."}],
       "schedule": "0 */6 * * *", "threshold": 0.8, "notes": "Checked four times a day."}\
      """;

  /** The watch of {@link #WATCH} as the model would copy it, with {@code edits}. */
  static String proposal(String edits) throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode p =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            Json.MAPPER.readTree(
                """
                {"reasons": [], "name": "Acme launch", "condition": "Acme announces its launch \
                date",
                 "sources": [{"type": "search", "value": "acme rocket launch", "trust": \
                "official", "recencyDays": null}],
                 "schedule": "0 0 1 1 *", "threshold": 0.8, "weakThreshold": 0.5, "enabled": true}\
                """);
    p.setAll((com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(edits));
    return Json.text(p);
  }

  @BeforeClass
  public static void start() throws Exception {
    upstream.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            if (request.getPath().startsWith("/res/v1/web/search")) {
              searchRequests.add(request);
              return searchStatus != 200
                  ? new MockResponse().setResponseCode(searchStatus).setBody("{}")
                  : json(200, searchResults(request.getRequestUrl().queryParameter("q"), 8));
            }
            if (request.getPath().equals("/v1/chat/completions")) return modelAnswer(request);
            return new MockResponse().setResponseCode(404);
          }
        });
    upstream.start(java.net.InetAddress.getLoopbackAddress(), 0);
    service = new InProcessService(configured(true), clock);
    alice = service.signedIn("alice", "user");
    bob = service.signedIn("bob", "user");
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    upstream.shutdown();
  }

  @Before
  public void freshWindow() {
    clock.set(clock.instant().plus(Duration.ofMinutes(1)));
    modelAnswers.clear();
    modelRequests.clear();
    searchRequests.clear();
    searchStatus = 200;
  }

  /** The service with the loopback model and its key, and with or without search. */
  static Config configured(boolean withSearch) {
    String base = "http://127.0.0.1:" + upstream.getPort();
    Map<String, Object> settings =
        new HashMap<>(
            Map.of(
                "periscope.model.provider",
                "openai",
                "periscope.model.base-url",
                base + "/v1",
                "periscope.model.name",
                "test-model",
                "periscope.model.api-keys",
                "sk-assist-test-0001",
                "periscope.search.provider",
                "brave",
                "periscope.search.base-url",
                base));
    if (withSearch) settings.put("periscope.search.api-keys", "bk-assist-test-0002");
    return ConfigFactory.parseMap(settings).withFallback(TestJournals.h2());
  }

  static MockResponse json(int status, String body) {
    return new MockResponse()
        .setResponseCode(status)
        .setHeader("Content-Type", "application/json")
        .setBody(body);
  }

  static MockResponse modelAnswer(RecordedRequest request) {
    try {
      modelRequests.add(Json.MAPPER.readTree(request.getBody().readUtf8()));
    } catch (Exception e) {
      return new MockResponse().setResponseCode(400);
    }
    if (request.getHeader("Authorization").contains("dying")) {
      return json(
          401, "{\"error\": {\"type\": \"invalid_request_error\", \"code\": \"invalid_api_key\"}}");
    }
    Object next = modelAnswers.poll();
    if (next == null || next instanceof Integer) {
      return json(next == null ? 500 : (Integer) next, "{\"error\": {\"type\": \"server_error\"}}");
    }
    return json(
        200,
        Json.text(
            Map.of(
                "choices",
                List.of(Map.of("message", Map.of("role", "assistant", "content", next))))));
  }

  static String searchResults(String query, int count) {
    return Json.text(
        Map.of(
            "web",
            Map.of(
                "results",
                IntStream.rangeClosed(1, count)
                    .mapToObj(
                        i ->
                            Map.of(
                                "title",
                                query + " <strong>" + i + "</strong>",
                                "url",
                                query.startsWith("hostile") && i == 1
                                    ? "javascript:alert(document.cookie)"
                                    : "https://news.example/" + i,
                                "description",
                                "About " + query,
                                "page_age",
                                "2026-03-01T0" + i + ":00:00"))
                    .toList())));
  }

  static HttpResponse<String> post(String path, String token, String body) throws Exception {
    return service.send("POST", path, token, body, Map.of());
  }

  static JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(r.body(), 200, r.statusCode());
    return Json.MAPPER.readTree(r.body());
  }

  static JsonNode error(HttpResponse<String> r, int status) throws Exception {
    return ApiClient.error(r, status);
  }

  static String userPrompt(JsonNode request) {
    return request.at("/messages/1/content").asText();
  }

  static String watches(String token) throws Exception {
    return service.send("GET", "/watches", token, null, Map.of()).body();
  }

  @Test
  public void aDescriptionBecomesACheckedDraftAndNothingIsStored() throws Exception {
    String before = watches(alice);
    modelAnswers.add(DRAFT);

    JsonNode draft =
        ok(post(
                "/watches/draft",
                alice,
                "{\"description\": \"Tell me when Acme sets a launch date\"}"))
            .get("draft");

    assertEquals("Acme launch", draft.get("name").asText());
    assertEquals("0 */6 * * *", draft.get("schedule").asText());
    assertEquals(7, draft.at("/sources/0/recencyDays").asInt());
    assertEquals("News of the date will be searchable.", draft.at("/sources/0/rationale").asText());
    assertEquals("Checked four times a day.", draft.get("notes").asText());
    JsonNode sent = modelRequests.getFirst();
    assertEquals("draft", sent.at("/response_format/json_schema/name").asText());
    assertEquals(
        "Description: Tell me when Acme sets a launch date\n\nTime zone: UTC", userPrompt(sent));
    assertEquals("the zone it was drafted for", "UTC", draft.get("timeZone").asText());
    assertEquals(before, watches(alice));
  }

  @Test
  public void anInvalidDraftIsAskedForOnceMoreNamingItsProblemsThenIs502() throws Exception {
    String sixFields = DRAFT.replace("0 */6 * * *", "0 0 */6 * * *");
    modelAnswers.add(sixFields);
    modelAnswers.add(DRAFT);
    assertEquals(
        "0 */6 * * *",
        ok(post("/watches/draft", alice, "{\"description\": \"Acme\"}"))
            .at("/draft/schedule")
            .asText());
    assertTrue(
        userPrompt(modelRequests.getLast()),
        userPrompt(modelRequests.getLast())
            .contains("could not be used:\n- schedule: is not a valid schedule"));

    modelRequests.clear();
    modelAnswers.add(sixFields);
    modelAnswers.add("{\"name\": \"no sources\"}");
    JsonNode failed = error(post("/watches/draft", alice, "{\"description\": \"Acme\"}"), 502);
    assertEquals("the model did not give a usable answer, twice", failed.get("error").asText());
    assertEquals("one retry, no more", 2, modelRequests.size());
  }

  @Test
  public void refiningSendsThePreviousDraftAndTheInstruction() throws Exception {
    modelAnswers.add(DRAFT.replace("\"trust\": null", "\"trust\": \"official\""));
    String body =
        """
        {"description": "", "refine": {"previousDraft": %s, "instruction": "only use official \
        sources"}}\
        """
            .formatted(DRAFT);

    JsonNode draft = ok(post("/watches/draft", alice, body)).get("draft");

    assertEquals("official", draft.at("/sources/0/trust").asText());
    String user = userPrompt(modelRequests.getFirst());
    assertTrue(user, user.startsWith("Previous draft:\n{"));
    assertTrue(user, user.contains("\"rationale\" : \"News of the date will be searchable.\""));
    assertTrue(user, user.endsWith("\n\nInstruction: only use official sources\n\nTime zone: UTC"));

    JsonNode refused = error(post("/watches/draft", alice, "{\"refine\": \"yes\"}"), 400);
    assertEquals("refine", refused.at("/issues/0/path/0").asText());
    assertEquals("a refused body asks no model", 1, modelRequests.size());
  }

  @Test
  public void aFailingModelIs502AndNeverA500() throws Exception {
    JsonNode failed = error(post("/watches/draft", alice, "{\"description\": \"Acme\"}"), 502);
    assertTrue(
        failed.get("error").asText(),
        failed.get("error").asText().startsWith("the model call failed: "));
    assertEquals("a transient failure is retried through the pool", 3, modelRequests.size());

    modelAnswers.add(400);
    error(post("/watches/" + created("failing") + "/explain", alice, null), 502);
    assertEquals("a rejected request is not retried", 4, modelRequests.size());
  }

  @Test
  public void explainReadsTheWatchAndChangesNothing() throws Exception {
    String id = created("explained");
    String before = service.send("GET", "/watches/" + id, alice, null, Map.of()).body();
    modelAnswers.add(
        "{\"explanation\": \"It searches the news for Acme's launch date every new year.\"}");

    JsonNode explained = ok(post("/watches/" + id + "/explain", alice, null));

    assertEquals(
        "It searches the news for Acme's launch date every new year.",
        explained.get("explanation").asText());
    String user = userPrompt(modelRequests.getFirst());
    assertTrue(
        user, user.startsWith("Watch:\n{") && user.endsWith("\n\nAlerts go to: telegram, webhook"));
    assertFalse(
        "channel targets never reach a model",
        modelRequests.getFirst().toString().contains("secret-hook-token"));
    assertEquals(before, service.send("GET", "/watches/" + id, alice, null, Map.of()).body());
    error(post("/watches/" + id + "/explain", bob, null), 404);
    error(post("/watches/never-created/explain", alice, null), 404);
    assertEquals("no model is asked for a watch the caller does not have", 1, modelRequests.size());
  }

  @Test
  public void reviseProposesOnlyWhatChangesAgainstTheStoredWatch() throws Exception {
    String id = created("revised");
    String before = service.send("GET", "/watches/" + id, alice, null, Map.of()).body();
    modelAnswers.add(
        proposal(
            """
            {"schedule": "0 8,20 * * *", "weakThreshold": null,
             "reasons": [{"field": "schedule", "why": "Twice a day, as asked."}]}\
            """));

    JsonNode revision =
        ok(post(
                "/watches/" + id + "/revise",
                alice,
                "{\"instruction\": \"check twice a day and drop weak alerts\"}"))
            .get("revision");

    assertEquals(
        Json.MAPPER.readTree(
            """
            {"schedule": "0 8,20 * * *", "weakThreshold": null, "reasons": [
              {"field": "schedule", "why": "Twice a day, as asked."},
              {"field": "weakThreshold", "why": "Changed to follow the instruction (the model \
            gave no reason)."}]}\
            """),
        revision);
    String user = userPrompt(modelRequests.getFirst());
    assertTrue(user, user.contains("\"schedule\" : \"0 0 1 1 *\""));
    assertTrue(user, user.endsWith("\n\nInstruction: check twice a day and drop weak alerts"));
    assertEquals(
        "revise saves nothing",
        before,
        service.send("GET", "/watches/" + id, alice, null, Map.of()).body());
  }

  @Test
  public void reviseShowsTheModelTheOwnersFeedbackOnTheWatchsRuns() throws Exception {
    // A feed on loopback, which the network guard refuses here: a quick recorded run (every source
    // failed).
    HttpResponse<String> created =
        service.send(
            "POST",
            "/watches",
            alice,
            TestWatches.body("heeded")
                .name("Acme launch")
                .condition("Acme announces its launch date")
                .feed("http://127.0.0.1:" + upstream.getPort() + "/feed.xml")
                .json(),
            Map.of());
    assertEquals(created.body(), 201, created.statusCode());
    String runId = ok(post("/watches/heeded/run", alice, null)).at("/result/runId").asText();
    assertEquals(
        200,
        service
            .send(
                "PUT",
                "/watches/heeded/runs/" + runId + "/feedback",
                alice,
                "{\"kind\": \"missed\", \"note\": \"the launch was announced on the blog\"}",
                Map.of())
            .statusCode());
    modelRequests.clear();
    modelAnswers.add(proposal("{}"));

    ok(post("/watches/heeded/revise", alice, "{\"instruction\": \"do not miss announcements\"}"));

    String user = userPrompt(modelRequests.getFirst());
    assertTrue(
        user,
        user.contains(
            "Feedback on its recent runs, most recent first:\n[ {\n  \"feedback\" : \"missed\",\n"
                + "  \"note\" : \"the launch was announced on the blog\",\n  \"run\" : {"));
    assertTrue(user, user.contains("\"outcome\" : \"error\""));
    assertFalse("run ids are not the model's business", user.contains(runId));
    assertTrue(user, user.endsWith("\n\nInstruction: do not miss announcements"));
    assertFalse(
        "a watch without feedback has no feedback section",
        userPrompt(reviseOf(created("unjudged"))).contains("Feedback on"));
  }

  /** The model request of a revision of {@code id} whose proposal changes nothing. */
  private JsonNode reviseOf(String id) throws Exception {
    modelRequests.clear();
    modelAnswers.add(proposal("{}"));
    ok(post("/watches/" + id + "/revise", alice, "{\"instruction\": \"keep it\"}"));
    return modelRequests.getFirst();
  }

  @Test
  public void reviseDiffsAgainstABaseWithThePathsIdAndOtherwiseTheStoredWatch() throws Exception {
    String id = created("based");
    JsonNode stored =
        Json.MAPPER.readTree(service.send("GET", "/watches/" + id, alice, null, Map.of()).body());
    com.fasterxml.jackson.databind.node.ObjectNode base = stored.deepCopy();
    base.put("name", "Acme launch watch");
    String renamed = proposal("{\"name\": \"Acme launch watch\"}");

    modelAnswers.add(renamed);
    JsonNode againstBase =
        ok(post(
                "/watches/" + id + "/revise",
                alice,
                "{\"instruction\": \"keep the name\", \"base\": " + base + "}"))
            .get("revision");
    assertFalse("the base already has the name: " + againstBase, againstBase.has("name"));
    assertTrue(
        "the model saw the base",
        userPrompt(modelRequests.getLast()).contains("Acme launch watch"));

    base.put("id", "some-other-watch");
    modelAnswers.add(renamed);
    JsonNode againstStored =
        ok(post(
                "/watches/" + id + "/revise",
                alice,
                "{\"instruction\": \"keep the name\", \"base\": " + base + "}"))
            .get("revision");
    assertEquals("Acme launch watch", againstStored.get("name").asText());
  }

  @Test
  public void reviseChecksTheBodyThenOwnershipAndTheProposal() throws Exception {
    String id = created("checked");
    error(post("/watches/" + id + "/revise", alice, "{}"), 400);
    error(post("/watches/" + id + "/revise", alice, "{\"instruction\": \"  \"}"), 400);
    error(post("/watches/" + id + "/revise", bob, "{}"), 400);
    error(post("/watches/" + id + "/revise", bob, "{\"instruction\": \"x\"}"), 404);
    assertTrue("refused requests ask no model", modelRequests.isEmpty());

    modelAnswers.add(proposal("{\"threshold\": 1.5}"));
    modelAnswers.add(proposal("{\"threshold\": 2}"));
    error(
        post("/watches/" + id + "/revise", alice, "{\"instruction\": \"alert only when certain\"}"),
        502);
    assertTrue(
        userPrompt(modelRequests.getLast()).contains("- threshold: must be a number from 0 to 1"));
  }

  @Test
  public void aPreviewLinksOnlyHttpAndHttpsResults() throws Exception {
    JsonNode candidates =
        ok(post("/watches/draft/preview", alice, "{\"value\": \"hostile results\"}"))
            .get("candidates");
    assertEquals(5, candidates.size());
    assertEquals("https://news.example/2", candidates.get(0).get("url").asText());
    assertTrue(candidates.findValuesAsText("url").stream().allMatch(u -> u.startsWith("https:")));
  }

  @Test
  public void previewShowsAtMostFiveCandidatesFromOneSearchAndAsksNoModel() throws Exception {
    JsonNode candidates =
        ok(post(
                "/watches/draft/preview",
                alice,
                "{\"value\": \"acme rocket launch\", \"hints\": {\"recencyDays\": 7}}"))
            .get("candidates");

    assertEquals(5, candidates.size());
    assertEquals(
        Json.MAPPER.readTree(
            """
            {"title": "acme rocket launch 1", "url": "https://news.example/1", "publishedAt": \
            "2026-03-01T01:00:00Z",
             "snippet": "About acme rocket launch"}\
            """),
        candidates.get(0));
    assertEquals(1, searchRequests.size());
    RecordedRequest search = searchRequests.getFirst();
    assertEquals("acme rocket launch", search.getRequestUrl().queryParameter("q"));
    assertEquals("5", search.getRequestUrl().queryParameter("count"));
    assertEquals("pw", search.getRequestUrl().queryParameter("freshness"));
    assertEquals("bk-assist-test-0002", search.getHeader("X-Subscription-Token"));
    assertTrue(modelRequests.isEmpty());

    error(post("/watches/draft/preview", alice, "{\"value\": \"\"}"), 400);
    searchStatus = 500;
    error(post("/watches/draft/preview", alice, "{\"value\": \"acme\"}"), 502);
  }

  @Test
  public void checkDomainsAnswersABooleanPerDomainAndValidatesTheBody() throws Exception {
    JsonNode liveness =
        ok(post(
                "/watches/draft/check-domains",
                alice,
                "{\"domains\": [\"no-such-host.invalid\", \"localhost\", \"not a domain\"]}"))
            .get("liveness");

    assertEquals(
        Json.MAPPER.readTree(
            "{\"no-such-host.invalid\": false, \"localhost\": false, \"not a domain\": false}"),
        liveness);
    error(post("/watches/draft/check-domains", alice, "{\"domains\": \"example.org\"}"), 400);
    String fiftyOne = "[" + "\"example.org\",".repeat(50) + "\"example.org\"]";
    error(post("/watches/draft/check-domains", alice, "{\"domains\": " + fiftyOne + "}"), 400);
  }

  @Test
  public void theLimitIsTenAMinutePerOwnerAcrossTheFiveRoutes() throws Exception {
    clock.set(
        clock
            .instant()
            .plus(Duration.ofMinutes(1))
            .truncatedTo(java.time.temporal.ChronoUnit.MINUTES)
            .plusSeconds(10));
    String id = created("limited");
    String domains = "{\"domains\": [\"localhost\"]}";
    for (int i = 0; i < 10; i++) {
      HttpResponse<String> r =
          switch (i % 5) {
            case 0 -> post("/watches/draft/check-domains", alice, domains);
            case 1 -> post("/watches/draft", alice, "{}"); // a 400 counts too
            case 2 -> post("/watches/draft/preview", alice, "{\"value\": 3}");
            case 3 -> post("/watches/" + id + "/revise", alice, "{}");
            default -> post("/watches/never-created/explain", alice, null); // so does a 404
          };
      assertTrue(r.statusCode() + " " + r.body(), r.statusCode() != 429);
    }
    HttpResponse<String> limited = post("/watches/draft/check-domains", alice, domains);
    error(limited, 429);
    assertEquals("50", limited.headers().firstValue("Retry-After").orElse(null));
    error(post("/watches/" + id + "/explain", alice, null), 429);
    assertEquals(
        "another owner has a window of their own",
        200,
        post("/watches/draft/check-domains", bob, domains).statusCode());
    assertEquals(
        "the watch routes are not limited",
        200,
        service.send("GET", "/watches/" + id, alice, null, Map.of()).statusCode());

    clock.set(clock.instant().plus(Duration.ofMinutes(1)));
    assertEquals(200, post("/watches/draft/check-domains", alice, domains).statusCode());
  }

  @Test
  public void aWatchCalledDraftIsStillAWatch() throws Exception {
    created("draft");
    assertEquals(200, service.send("GET", "/watches/draft", alice, null, Map.of()).statusCode());
    assertEquals(
        200,
        service
            .send("PUT", "/watches/draft", alice, WATCH.formatted("draft"), Map.of())
            .statusCode());
    assertEquals(
        200, service.send("GET", "/watches/draft/runs", alice, null, Map.of()).statusCode());
    modelAnswers.add("{\"explanation\": \"The watch called draft.\"}");
    assertEquals(
        "The watch called draft.",
        ok(post("/watches/draft/explain", alice, null)).get("explanation").asText());
    error(service.send("GET", "/watches/draft/preview", alice, null, Map.of()), 405);
    assertEquals(204, service.send("DELETE", "/watches/draft", alice, null, Map.of()).statusCode());
  }

  @Test
  public void withoutAUsableKeyAssistanceIsNotConfigured() throws Exception {
    Config noKeys =
        ConfigFactory.parseMap(
                Map.of("periscope.model.api-keys", "", "periscope.search.api-keys", ""))
            .withFallback(configured(false));
    try (InProcessService bare = new InProcessService(noKeys, clock)) {
      bare.account("carol", "user", "carol-passphrase");
      String carol = bare.login("carol", "carol-passphrase");
      assertEquals(
          201,
          bare.send("POST", "/watches", carol, WATCH.formatted("mine"), Map.of()).statusCode());
      // 503 comes before the body and the watch are looked at.
      for (String[] call :
          new String[][] {
            {"/watches/draft", "{}"},
            {"/watches/draft/check-domains", "{}"},
            {"/watches/draft/preview", "{}"},
            {"/watches/mine/explain", null},
            {"/watches/mine/revise", "{}"},
            {"/watches/not-mine/explain", null}
          }) {
        error(bare.send("POST", call[0], carol, call[1], Map.of()), 503);
      }
    }
    assertTrue(modelRequests.isEmpty());
  }

  @Test
  public void previewNeedsASearchKeyAndDeadModelKeysMeanNoAssistance() throws Exception {
    Config dying =
        ConfigFactory.parseMap(Map.of("periscope.model.api-keys", "sk-dying-test-0003"))
            .withFallback(configured(false));
    try (InProcessService service = new InProcessService(dying, clock)) {
      service.account("carol", "user", "carol-passphrase");
      String carol = service.login("carol", "carol-passphrase");
      error(
          service.send("POST", "/watches/draft/preview", carol, "{\"value\": \"acme\"}", Map.of()),
          503);
      assertTrue(searchRequests.isEmpty());

      // The provider rejects the only model key: it dies, and with it the capability.
      error(
          service.send("POST", "/watches/draft", carol, "{\"description\": \"Acme\"}", Map.of()),
          503);
      assertEquals(1, modelRequests.size());
      error(
          service.send(
              "POST", "/watches/draft/check-domains", carol, "{\"domains\": []}", Map.of()),
          503);
    }
  }

  /** A watch of alice's with this id. */
  static String created(String id) throws Exception {
    HttpResponse<String> r = service.send("POST", "/watches", alice, WATCH.formatted(id), Map.of());
    assertEquals(r.body(), 201, r.statusCode());
    return id;
  }
}
