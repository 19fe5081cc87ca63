package io.periscope.http;

import static io.periscope.testing.AdminBodies.modelBody;
import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.CapturedLogs;
import io.periscope.testing.InProcessService;
import io.periscope.testing.MutableClock;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The administration routes over real HTTP, against one loopback server playing an
 * OpenAI-compatible model, an Anthropic model and the Brave search API. Key probes and model calls
 * are recorded with the key they carried. The service's clock is moved to a fresh minute before
 * each test, so each test has its own window of the probe limit.
 */
public class AdminRoutesTest {
  static final MockWebServer upstream = new MockWebServer();

  /** Every key probe the fake saw: {@code "<provider> <key>"}. */
  static final ConcurrentLinkedDeque<String> probes = new ConcurrentLinkedDeque<>();

  /** Every model question the fake answered: {@code "<provider> <model> <key>"}. */
  static final ConcurrentLinkedDeque<String> questions = new ConcurrentLinkedDeque<>();

  /** Every search: the query string with the key that came along. */
  static final ConcurrentLinkedDeque<String> searches = new ConcurrentLinkedDeque<>();

  /** Keys the fake rejects as invalid from now on (besides every key containing "invalid"). */
  static final Set<String> revoked = ConcurrentHashMap.newKeySet();

  /** Keys the fake answers with a rate limit. */
  static final Set<String> resting = ConcurrentHashMap.newKeySet();

  static final AtomicInteger feedItems = new AtomicInteger();
  static final MutableClock clock = new MutableClock(Instant.parse("2026-03-02T09:00:10Z"));

  static final String SEEDED_MODEL_KEY = "sk-valid-seeded-00000000000001";
  static final String SEEDED_SEARCH_KEY = "bk-valid-seeded-00000000000002";
  static InProcessService service;
  static String root;
  static String ops;
  static String alice;

  @BeforeClass
  public static void start() throws Exception {
    upstream.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            if (path.equals("/v1/models")) return probe(request);
            if (path.equals("/v1/chat/completions") || path.equals("/v1/messages"))
              return question(request);
            if (path.startsWith("/res/v1/web/search")) return search(request);
            if (path.equals("/feed.xml")) return feed();
            if (path.startsWith("/articles/")) {
              return new MockResponse()
                  .setHeader("Content-Type", "text/html")
                  .setBody(
                      "<html><body><article><p>Acme said nothing new.</p></article></body></html>");
            }
            return new MockResponse().setResponseCode(404);
          }
        });
    upstream.start(java.net.InetAddress.getLoopbackAddress(), 0);
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.model.provider",
                        "openai",
                        "periscope.model.base-url",
                        base() + "/v1",
                        "periscope.model.name",
                        "test-model",
                        "periscope.model.api-keys",
                        SEEDED_MODEL_KEY,
                        "periscope.search.provider",
                        "brave",
                        "periscope.search.base-url",
                        base(),
                        "periscope.search.api-keys",
                        SEEDED_SEARCH_KEY,
                        "periscope.fetch.allow-private-networks",
                        true))
                .withFallback(TestJournals.h2()),
            clock);
    root = service.signedIn("root", "admin");
    ops = service.signedIn("ops", "admin");
    alice = service.signedIn("alice", "user");
    json(
        service.call(
            "POST",
            "/watches",
            root,
            TestWatches.body("acme")
                .name("Acme")
                .condition("Acme announces its launch date")
                .feed(base() + "/feed.xml")
                .json()),
        201);
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    upstream.shutdown();
  }

  @Before
  public void freshMinute() {
    clock.set(clock.instant().plus(Duration.ofMinutes(1)));
    probes.clear();
    questions.clear();
    searches.clear();
    revoked.clear();
    resting.clear();
  }

  static String base() {
    return "http://127.0.0.1:" + upstream.getPort();
  }

  // ---- the fake upstreams
  // ------------------------------------------------------------------------------------

  static String keyOf(RecordedRequest request) {
    String bearer = request.getHeader("Authorization");
    return bearer != null ? bearer.substring("Bearer ".length()) : request.getHeader("x-api-key");
  }

  static String providerOf(RecordedRequest request) {
    return request.getHeader("x-api-key") != null ? "anthropic" : "openai";
  }

  static MockResponse reply(int status, String body) {
    return new MockResponse()
        .setResponseCode(status)
        .setHeader("Content-Type", "application/json")
        .setBody(body);
  }

  /**
   * An invalid key is refused the way OpenAI does, except that the key itself comes back as the
   * error code.
   */
  static MockResponse refusedKey(String key) {
    return reply(
        401,
        "{\"error\": {\"code\": \""
            + key
            + "\", \"message\": \"Incorrect API key provided: "
            + key
            + "\"}}");
  }

  static MockResponse probe(RecordedRequest request) {
    String key = keyOf(request);
    probes.add(providerOf(request) + " " + key);
    if (key.contains("invalid") || revoked.contains(key)) return refusedKey(key);
    if (resting.contains(key)) {
      return reply(429, "{\"error\": {\"code\": \"rate_limit_exceeded\"}}")
          .setHeader("Retry-After", "120");
    }
    return reply(200, "{\"object\": \"list\", \"data\": [{\"id\": \"test-model\"}]}");
  }

  static MockResponse question(RecordedRequest request) {
    String key = keyOf(request);
    JsonNode body;
    try {
      body = Json.MAPPER.readTree(request.getBody().readUtf8());
    } catch (Exception e) {
      return reply(400, "{}");
    }
    questions.add(providerOf(request) + " " + body.path("model").asText() + " " + key);
    if (revoked.contains(key)) return refusedKey(key);
    boolean anthropic = providerOf(request).equals("anthropic");
    String schema =
        anthropic
            ? body.at("/tool_choice/name").asText()
            : body.at("/response_format/json_schema/name").asText();
    Map<String, Object> answer =
        schema.equals("verdict")
            ? Map.of(
                "reasoning",
                "nothing about a date",
                "met",
                false,
                "confidence",
                0.1,
                "summary",
                "No date yet.",
                "evidence",
                List.of())
            : Map.of(
                "explanation",
                "Looks at the Acme feed and alerts when a launch date is announced.");
    return reply(
        200,
        anthropic
            ? Json.text(
                Map.of(
                    "content",
                    List.of(Map.of("type", "tool_use", "name", schema, "input", answer))))
            : Json.text(
                Map.of(
                    "choices",
                    List.of(
                        Map.of(
                            "message",
                            Map.of("role", "assistant", "content", Json.text(answer)))))));
  }

  static MockResponse search(RecordedRequest request) {
    String key = request.getHeader("X-Subscription-Token");
    searches.add(request.getRequestUrl().query() + " " + key);
    if (key.contains("invalid")) {
      return reply(
          422,
          "{\"type\": \"ErrorResponse\", \"error\": {\"code\": \"SUBSCRIPTION_TOKEN_INVALID\"}}");
    }
    return reply(
        200,
        Json.text(
            Map.of(
                "web",
                Map.of(
                    "results",
                    List.of(
                        Map.of(
                            "title",
                            "Acme",
                            "url",
                            "https://news.example/acme",
                            "description",
                            "About Acme"))))));
  }

  /** A fresh item on every read, published then, so every run asks the model. */
  static MockResponse feed() {
    int n = feedItems.incrementAndGet();
    return new MockResponse()
        .setHeader("Content-Type", "application/rss+xml")
        .setBody(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Acme</title><link>"
                + base()
                + "</link>"
                + "<description>d</description><item><title>Acme news "
                + n
                + "</title><link>"
                + base()
                + "/articles/"
                + n
                + "</link><guid>acme-"
                + n
                + "</guid><pubDate>"
                + java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC))
                + "</pubDate><description>News "
                + n
                + "</description></item></channel></rss>");
  }

  // ---- calls
  // -----------------------------------------------------------------------------------------------

  static JsonNode error(HttpResponse<String> r, int status) throws Exception {
    return ApiClient.error(r, status);
  }

  static HttpResponse<String> add(String pool, String key, String token) throws Exception {
    return service.call("POST", "/admin/keys/" + pool, token, Json.text(Map.of("key", key)));
  }

  static String idOf(String pool, String label) throws Exception {
    for (JsonNode k : json(service.call("GET", "/admin/keys", root, null), 200).get("keys")) {
      if (k.get("pool").asText().equals(pool) && k.get("label").asText().equals(label))
        return k.get("id").asText();
    }
    throw new AssertionError("no " + pool + " key " + label);
  }

  static List<JsonNode> keys(String pool) throws Exception {
    List<JsonNode> found = new ArrayList<>();
    json(service.call("GET", "/admin/keys", root, null), 200)
        .get("keys")
        .forEach(
            k -> {
              if (k.get("pool").asText().equals(pool)) found.add(k);
            });
    return found;
  }

  static JsonNode run() throws Exception {
    return json(service.call("POST", "/watches/acme/run", root, null), 200).get("result");
  }

  /**
   * Fails when {@code text} shows {@code key}, or the part of it a black-box check also looks for.
   */
  static void assertHidden(String key, String text) {
    assertFalse(
        "the key shows: " + text, text.contains(key) || text.contains(key.substring(4, 16)));
  }

  // ---- key pools
  // ---------------------------------------------------------------------------------------------

  @Test
  public void aValidKeyIsProbedThenAddedAndShownOnlyMasked() throws Exception {
    String key = "sk-valid-added-000000000000003";
    HttpResponse<String> created = add("model", key, root);
    JsonNode row = json(created, 201);

    assertEquals(List.of("openai " + key), List.copyOf(probes));
    assertEquals("model", row.get("pool").asText());
    assertEquals("sk-…0003", row.get("label").asText());
    assertEquals("active", row.get("status").asText());
    assertEquals(0, row.get("usedToday").asInt());
    assertHidden(key, created.body());
    String id = row.get("id").asText();
    assertEquals(row, json(service.call("GET", "/admin/keys/model/" + id, root, null), 200));
    assertEquals(id, idOf("model", "sk-…0003"));

    JsonNode again = error(add("model", key, root), 409);
    assertTrue(again.get("error").asText(), again.get("error").asText().contains(id));
    assertEquals("a key in the pool already is not probed again", 1, probes.size());
    assertEquals(204, service.call("DELETE", "/admin/keys/model/" + id, root, null).statusCode());
  }

  @Test
  public void aKeyTheProviderRejectsIs422AndNothingIsAddedNorShownNorLogged() throws Exception {
    String key = "sk-invalid-echoed-0000000000004";
    try (CapturedLogs logs = new CapturedLogs()) {
      HttpResponse<String> refused = add("model", key, root);
      JsonNode body = error(refused, 422);

      assertEquals(
          "the model provider rejected the key: the provider answered HTTP 401; nothing was added",
          body.get("error").asText());
      assertEquals(List.of("openai " + key), List.copyOf(probes));
      assertHidden(key, refused.body());
      String list = service.call("GET", "/admin/keys", root, null).body();
      assertFalse(list.contains("…0004"));
      assertHidden(key, list);
      logs.assertNoneContains(key, key.substring(4, 16));
    }
  }

  @Test
  public void anUnreachableProviderIs502AndNothingIsAdded() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    String nowhere = "http://127.0.0.1:" + closed + "/v1";
    json(
        service.call(
            "PUT", "/admin/model", root, modelBody("openai", nowhere, "m", "openai", nowhere, "m")),
        200);
    try {
      JsonNode body = error(add("model", "sk-valid-unreached-00000000005", root), 502);
      assertEquals(
          "the model provider could not check the key: openai unreachable (ConnectException); "
              + "nothing was added",
          body.get("error").asText());
      assertTrue(keys("model").stream().noneMatch(k -> k.get("label").asText().equals("sk-…0005")));
    } finally {
      json(service.call("DELETE", "/admin/model", root, null), 200);
    }
  }

  @Test
  public void probingIsLimitedToTenRequestsAMinuteForAllAdminsTogether() throws Exception {
    String seeded = idOf("model", "sk-…0001");
    for (int i = 0; i < 6; i++)
      json(service.call("POST", "/admin/keys/model/" + seeded + "/probe", root, null), 200);
    for (int i = 0; i < 4; i++) error(add("model", "sk-invalid-burst-00000000000" + i, ops), 422);
    assertEquals(10, probes.size());

    HttpResponse<String> limited = add("model", "sk-valid-limited-0000000000006", ops);
    error(limited, 429);
    assertEquals("50", limited.headers().firstValue("Retry-After").orElse(null));
    error(service.call("POST", "/admin/keys/model/" + seeded + "/probe", root, null), 429);
    assertEquals("a limited request probes nothing", 10, probes.size());
    json(service.call("GET", "/admin/keys", root, null), 200);

    clock.set(clock.instant().plus(Duration.ofMinutes(1)));
    String id = json(add("model", "sk-valid-limited-0000000000006", ops), 201).get("id").asText();
    assertEquals(204, service.call("DELETE", "/admin/keys/model/" + id, ops, null).statusCode());
  }

  @Test
  public void aRemovedKeyIsGoneAndAddingItAgainProbesItAgain() throws Exception {
    String key = "sk-valid-removed-0000000000007";
    String id = json(add("model", key, root), 201).get("id").asText();

    assertEquals(204, service.call("DELETE", "/admin/keys/model/" + id, root, null).statusCode());
    error(service.call("GET", "/admin/keys/model/" + id, root, null), 404);
    error(service.call("DELETE", "/admin/keys/model/" + id, root, null), 404);
    assertTrue(keys("model").stream().noneMatch(k -> k.get("id").asText().equals(id)));

    assertEquals(id, json(add("model", key, root), 201).get("id").asText());
    assertEquals(2, probes.size());
    assertEquals(204, service.call("DELETE", "/admin/keys/model/" + id, root, null).statusCode());
  }

  @Test
  public void aKeyAtItsDailyLimitIsSkippedWhenKeysAreChosen() throws Exception {
    List<JsonNode> active =
        keys("model").stream().filter(k -> k.get("status").asText().equals("active")).toList();
    Map<String, String> labels = new HashMap<>();
    for (JsonNode k : active) {
      String path = "/admin/keys/model/" + k.get("id").asText() + "/daily-limit";
      String limit = "{\"dailyLimit\": " + (k.get("usedToday").asInt() + 1) + "}";
      JsonNode row = json(service.call("PUT", path, root, limit), 200);
      assertEquals(k.get("usedToday").asInt() + 1, row.get("dailyLimit").asInt());
      labels.put(k.get("id").asText(), k.get("label").asText());
    }
    try {
      for (int i = 0; i < active.size(); i++)
        assertEquals("no-match", run().get("outcome").asText());
      assertEquals(
          "each key served its one remaining use",
          active.size(),
          questions.stream().map(q -> q.split(" ")[2]).distinct().count());

      JsonNode refused = run();
      assertEquals("error", refused.get("outcome").asText());
      assertEquals("no usable model key is configured", refused.get("error").asText());
      assertEquals(active.size(), questions.size());
      assertFalse(
          json(service.call("GET", "/config/status", null, null), 200).get("model").asBoolean());
      for (JsonNode k : keys("model")) {
        if (labels.containsKey(k.get("id").asText())) {
          assertEquals(k.get("dailyLimit").asInt(), k.get("usedToday").asInt());
        }
      }
    } finally {
      for (String id : labels.keySet()) {
        String path = "/admin/keys/model/" + id + "/daily-limit";
        JsonNode row = json(service.call("PUT", path, root, "{\"dailyLimit\": null}"), 200);
        assertNull(row.get("dailyLimit"));
      }
    }
    assertEquals("no-match", run().get("outcome").asText());
    assertTrue(
        json(service.call("GET", "/config/status", null, null), 200).get("model").asBoolean());
  }

  @Test
  public void aReprobeKillsARejectedKeyAndRevivesAnAcceptedOne() throws Exception {
    String key = "sk-valid-reprobed-000000000008";
    String id = json(add("model", key, root), 201).get("id").asText();
    String probe = "/admin/keys/model/" + id + "/probe";
    try (CapturedLogs logs = new CapturedLogs()) {
      revoked.add(key);
      HttpResponse<String> rejected = service.call("POST", probe, root, null);
      assertEquals(
          "the model provider rejected the key: the provider answered HTTP 401; the key is now"
              + " dead",
          error(rejected, 422).get("error").asText());
      JsonNode dead = json(service.call("GET", "/admin/keys/model/" + id, root, null), 200);
      assertEquals("dead", dead.get("status").asText());
      assertEquals("invalid-key (HTTP 401)", dead.get("lastProblem").asText());
      logs.assertNoneContains(key, key.substring(4, 16));
    }

    revoked.remove(key);
    JsonNode revived = json(service.call("POST", probe, root, null), 200);
    assertEquals("active", revived.get("status").asText());
    assertNull(revived.get("lastProblem"));

    resting.add(key);
    JsonNode cooling = json(service.call("POST", probe, root, null), 200);
    assertEquals("cooldown", cooling.get("status").asText());
    assertTrue(cooling.get("cooldownUntil").isTextual());
    resting.remove(key);
    assertEquals(
        "active", json(service.call("POST", probe, root, null), 200).get("status").asText());
    assertEquals(5, probes.size());
    assertEquals(204, service.call("DELETE", "/admin/keys/model/" + id, root, null).statusCode());
  }

  @Test
  public void aRateLimitedKeyIsAddedCoolingDown() throws Exception {
    String key = "sk-valid-resting-0000000000009";
    resting.add(key);
    JsonNode row = json(add("model", key, root), 201);
    assertEquals("cooldown", row.get("status").asText());
    assertEquals("rate-limited (HTTP 429)", row.get("lastProblem").asText());
    assertEquals(
        204,
        service
            .call("DELETE", "/admin/keys/model/" + row.get("id").asText(), root, null)
            .statusCode());
  }

  @Test
  public void searchKeysAreProbedWithTheSmallestSearch() throws Exception {
    String key = "bk-valid-search-00000000000010";
    JsonNode row = json(add("search", key, root), 201);
    assertEquals(List.of("q=periscope&count=1 " + key), List.copyOf(searches));
    assertEquals("search", row.get("pool").asText());

    String invalid = "bk-invalid-search-000000000011";
    assertEquals(
        "the search provider rejected the key: provider answered HTTP 422"
            + " (subscription_token_invalid); nothing was added",
        error(add("search", invalid, root), 422).get("error").asText());
    assertTrue(probes.isEmpty());
    assertEquals(
        204,
        service
            .call("DELETE", "/admin/keys/search/" + row.get("id").asText(), root, null)
            .statusCode());
  }

  @Test
  public void badRequestsAre4xxAndChangeNothing() throws Exception {
    String before = service.call("GET", "/admin/keys", root, null).body();
    for (String body :
        List.of(
            "{}",
            "{\"key\": \"short\"}",
            "{\"key\": \"has a space-0000000\"}",
            "{\"key\": 123456789}")) {
      JsonNode issues =
          error(service.call("POST", "/admin/keys/model", root, body), 400).get("issues");
      assertEquals(body, "[\"key\"]", issues.get(0).get("path").toString());
    }
    error(add("nope", "sk-valid-nowhere-0000000000012", root), 404);
    error(service.call("GET", "/admin/keys/model/unknown", root, null), 404);
    error(service.call("DELETE", "/admin/keys/model/unknown", root, null), 404);
    error(
        service.call("PUT", "/admin/keys/model/unknown/daily-limit", root, "{\"dailyLimit\": 5}"),
        404);
    error(service.call("POST", "/admin/keys/model/unknown/probe", root, null), 404);
    String seeded = "/admin/keys/model/" + idOf("model", "sk-…0001") + "/daily-limit";
    for (String body :
        List.of(
            "{}",
            "{\"dailyLimit\": 0}",
            "{\"dailyLimit\": -3}",
            "{\"dailyLimit\": 1.5}",
            "{\"dailyLimit\": \"5\"}",
            "{\"dailyLimit\": 1000000001}")) {
      JsonNode issues = error(service.call("PUT", seeded, root, body), 400).get("issues");
      assertEquals(body, "[\"dailyLimit\"]", issues.get(0).get("path").toString());
    }
    assertTrue(probes.isEmpty());
    assertEquals(before, service.call("GET", "/admin/keys", root, null).body());
  }

  @Test
  public void usersAreRefusedEveryAdminRoute() throws Exception {
    String seeded = idOf("model", "sk-…0001");
    List<HttpResponse<String>> refused =
        List.of(
            service.call("GET", "/admin/keys", alice, null),
            add("model", "sk-valid-by-a-user-00000000013", alice),
            service.call("GET", "/admin/keys/model/" + seeded, alice, null),
            service.call("DELETE", "/admin/keys/model/" + seeded, alice, null),
            service.call(
                "PUT",
                "/admin/keys/model/" + seeded + "/daily-limit",
                alice,
                "{\"dailyLimit\": 1}"),
            service.call("POST", "/admin/keys/model/" + seeded + "/probe", alice, null),
            service.call("GET", "/admin/model", alice, null),
            service.call(
                "PUT",
                "/admin/model",
                alice,
                modelBody("openai", base(), "m", "openai", base(), "m")),
            service.call("DELETE", "/admin/model", alice, null));
    for (HttpResponse<String> r : refused)
      assertEquals("administrators only", error(r, 403).get("error").asText());
    assertTrue(probes.isEmpty());
    assertEquals(
        "environment",
        json(service.call("GET", "/admin/model", root, null), 200).get("source").asText());
    assertTrue(
        keys("model").stream()
            .anyMatch(k -> k.get("id").asText().equals(seeded) && k.get("dailyLimit") == null));
  }

  // ---- model configuration
  // -----------------------------------------------------------------------------------

  @Test
  public void aModelChangeIsAskedByTheNextRunAndTheNextAssistanceWithoutARestart()
      throws Exception {
    JsonNode fromEnvironment = json(service.call("GET", "/admin/model", root, null), 200);
    assertEquals("environment", fromEnvironment.get("source").asText());
    assertEquals(
        Json.MAPPER.readTree(
            "{\"provider\": \"openai\", \"baseUrl\": \""
                + base()
                + "/v1\", "
                + "\"model\": \"test-model\"}"),
        fromEnvironment.get("verdicts"));
    assertEquals(fromEnvironment.get("verdicts"), fromEnvironment.get("assistance"));
    assertEquals(
        List.of("openai:test-model"), Json.MAPPER.convertValue(run().get("models"), List.class));

    JsonNode changed =
        json(
            service.call(
                "PUT",
                "/admin/model",
                ops,
                modelBody("openai", base() + "/v1/", "judge-2", "anthropic", base(), "helper-2")),
            200);
    try {
      assertEquals("admin", changed.get("source").asText());
      assertEquals("ops", changed.get("changedBy").asText());
      assertEquals(base() + "/v1", changed.at("/verdicts/baseUrl").asText());
      assertEquals(changed, json(service.call("GET", "/admin/model", root, null), 200));
      questions.clear();

      assertEquals(
          List.of("openai:judge-2"), Json.MAPPER.convertValue(run().get("models"), List.class));
      json(service.call("POST", "/watches/acme/explain", root, null), 200);
      assertEquals(2, questions.size());
      assertTrue(questions.getFirst(), questions.getFirst().startsWith("openai judge-2 "));
      assertTrue(questions.getLast(), questions.getLast().startsWith("anthropic helper-2 "));

      String key = "sk-valid-two-endpoints-0000014";
      String id = json(add("model", key, root), 201).get("id").asText();
      assertEquals(
          "a model key is probed at every endpoint in force",
          List.of("openai " + key, "anthropic " + key),
          List.copyOf(probes));
      assertEquals(204, service.call("DELETE", "/admin/keys/model/" + id, root, null).statusCode());
    } finally {
      JsonNode reset = json(service.call("DELETE", "/admin/model", root, null), 200);
      assertEquals("environment", reset.get("source").asText());
      assertNull(reset.get("changedBy"));
    }
    assertEquals(
        List.of("openai:test-model"), Json.MAPPER.convertValue(run().get("models"), List.class));
  }

  @Test
  public void aModelsPriceIsKeptWithItAndABadPriceIs400ChangingNothing() throws Exception {
    String priced =
        """
        {"verdicts": {"provider": "openai", "baseUrl": "%1$s/v1", "model": "judge",         "price": {"inputPerMillion": 0.15, "cachedInputPerMillion": 0.075,         "outputPerMillion": 0.60}},
         "assistance": {"provider": "openai", "baseUrl": "%1$s/v1", "model": "helper"}}\
        """
            .formatted(base());
    JsonNode changed = json(service.call("PUT", "/admin/model", root, priced), 200);
    try {
      assertEquals(
          Json.MAPPER.readTree(
              "{\"inputPerMillion\": 0.15, \"cachedInputPerMillion\": 0.075,"
                  + " \"outputPerMillion\": 0.6}"),
          changed.at("/verdicts/price"));
      assertTrue("no price, no price field", changed.at("/assistance/price").isMissingNode());
      assertEquals(changed, json(service.call("GET", "/admin/model", root, null), 200));

      String before = service.call("GET", "/admin/model", root, null).body();
      String cheap =
          priced.replace("\"outputPerMillion\": 0.60", "\"outputPerMillion\": \"cheap\"");
      HttpResponse<String> refused = service.call("PUT", "/admin/model", root, cheap);
      assertEquals(
          Json.MAPPER.readTree(
              """
              [{"path": ["verdicts", "price", "outputPerMillion"],
                "message": "must be a number from 0 to 100000 (per million tokens)"}]\
              """),
          error(refused, 400).get("issues"));
      assertEquals(before, service.call("GET", "/admin/model", root, null).body());
    } finally {
      json(service.call("DELETE", "/admin/model", root, null), 200);
    }
  }

  @Test
  public void anInvalidModelConfigurationIs400WithItsIssuesAndChangesNothing() throws Exception {
    String before = service.call("GET", "/admin/model", root, null).body();
    JsonNode issues =
        error(
                service.call(
                    "PUT",
                    "/admin/model",
                    root,
                    modelBody(
                        "gemini",
                        "ftp://models.example",
                        "m",
                        "openai",
                        "https://key:secret@models.example/v1",
                        "")),
                400)
            .get("issues");
    assertEquals(
        Json.MAPPER.readTree(
            """
            [{"path": ["verdicts", "provider"], "message": "must be openai or anthropic"},
             {"path": ["verdicts", "baseUrl"], "message": "must be an absolute http(s) URL"},
             {"path": ["assistance", "baseUrl"], "message": "must not carry credentials (keys \
            belong in the key pool)"},
             {"path": ["assistance", "model"], "message": "must be a non-empty string"}]\
            """),
        issues);
    assertFalse("no value is echoed", issues.toString().contains("secret"));
    error(service.call("PUT", "/admin/model", root, "{\"verdicts\": {}}"), 400);
    error(service.call("PUT", "/admin/model", root, "[]"), 400);
    assertEquals(before, service.call("GET", "/admin/model", root, null).body());
  }
}
