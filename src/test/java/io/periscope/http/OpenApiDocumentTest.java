package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import io.periscope.keys.KeyCipher;
import io.periscope.testing.FakePushService;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.JsonSchemaValidationException;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.validation.ResponseValidator;
import io.vertx.openapi.validation.ValidatableResponse;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The OpenAPI document served at /openapi.json: valid OpenAPI 3.1 (checked against the official
 * schema by Vert.x's contract loader, which also resolves every reference), and the whole interface
 * in both directions. Every route the service routes by (its {@link Endpoint}s) is documented with
 * its security, nothing else is; and every documented operation, asked of the running service, is
 * answered by a route, with a status the document lists and a body of that status's schema.
 */
public class OpenApiDocumentTest {
  static final Set<String> METHODS =
      Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
  static final String WATCH =
      """
      {"id": "%s", "name": "Acme", "sources": [{"type": "rss", "value": \
      "http://127.0.0.1:9/feed.xml"}],
       "schedule": "0 0 1 1 *", "condition": "Acme sets a date", "threshold": 0.8}\
      """;

  static final String NO_MODEL = "http://127.0.0.1:9/v1";
  static final String MODEL_KEY = "sk-openapi-test-00000000000001";

  static Vertx vertx;
  static JsonNode document;
  static InProcessService service;
  static FakePushService pushService;
  static String root;
  static String alice;

  /**
   * An administrator of its own, so the route layer's probes use rate-limit windows of their own.
   */
  static String prober;

  @BeforeClass
  public static void start() throws Exception {
    vertx = Vertx.vertx();
    document = Json.MAPPER.readTree(OpenApiRoutes.load());
    // GitHub configured, so /auth/{provider} has a provider to answer for; sign-in never reaches it
    // here. A model key, so the key routes have one to answer for; its provider refuses connections
    // (probes and assistance: 502).
    service =
        new InProcessService(
            ConfigFactory.parseMap(
                    Map.of(
                        "periscope.identity.github.client-id",
                        "openapi-test-client",
                        "periscope.identity.github.client-secret",
                        "openapi-test-secret",
                        "periscope.model.base-url",
                        NO_MODEL,
                        "periscope.model.api-keys",
                        MODEL_KEY,
                        "periscope.metrics.enabled",
                        true))
                .withFallback(TestJournals.h2()));
    pushService = new FakePushService();
    root = service.signedIn("root", "admin");
    alice = service.signedIn("alice", "user");
    prober = service.signedIn("prober", "admin");
    readOnly = apiToken(prober, "read");
    writeOnly = apiToken(prober, "watches");
  }

  /** The prober's personal API tokens with one scope each: a GET, a change or /admin they lack. */
  static String readOnly;

  static String writeOnly;

  private static String apiToken(String signIn, String scope) throws Exception {
    return json(
            service.call(
                "POST",
                "/account/tokens",
                signIn,
                Json.text(Map.of("name", scope + " only", "scopes", List.of(scope)))),
            201)
        .get("token")
        .asText();
  }

  @AfterClass
  public static void stop() throws Exception {
    service.close();
    pushService.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  public void theDocumentIsValidOpenApi31() throws Exception {
    assertTrue(document.get("openapi").asText().startsWith("3.1."));
    contract(document);
  }

  @Test
  public void theValidatorRefusesWhatIsNotOpenApi31() throws Exception {
    ObjectNode noResponses = document.deepCopy();
    ((ObjectNode) noResponses.at("/paths/~1watches/get")).remove("responses");
    assertInvalid("an operation without responses", noResponses);
    ObjectNode badStatus = document.deepCopy();
    ObjectNode responses = (ObjectNode) badStatus.at("/paths/~1watches/get/responses");
    responses.set("20", responses.get("200"));
    assertInvalid("a status that is no status", badStatus);
    ObjectNode dangling = document.deepCopy();
    ((ObjectNode) dangling.at("/components/schemas")).remove("Watch");
    assertInvalid("a reference to nothing", dangling);
  }

  /**
   * Answered → documented: what the service routes by is exactly what the document lists, public or
   * not.
   */
  @Test
  public void everyRouteTheServiceAnswersIsDocumentedWithItsSecurity() {
    Set<String> routed = new TreeSet<>();
    Set<String> publicRoutes = new TreeSet<>();
    service.api.publicEndpoints().forEach(e -> publicRoutes.add(operation(e)));
    routed.addAll(publicRoutes);
    service
        .api
        .authenticatedEndpoints()
        .forEach(e -> assertTrue("routed twice: " + operation(e), routed.add(operation(e))));

    Set<String> documented = new TreeSet<>();
    Set<String> documentedPublic = new TreeSet<>();
    operations()
        .forEach(
            op -> {
              documented.add(op.key());
              if (op.open()) documentedPublic.add(op.key());
            });
    assertEquals("routed but not documented", Set.of(), missing(routed, documented));
    assertEquals("documented but not routed", Set.of(), missing(documented, routed));
    assertEquals(
        "public but not documented with security: []",
        Set.of(),
        missing(publicRoutes, documentedPublic));
    assertEquals(
        "documented with security: [] but needs a token",
        Set.of(),
        missing(documentedPublic, publicRoutes));
    assertTrue("everything else needs the bearer token", document.at("/security/0").has("bearer"));
  }

  /**
   * Documented → answered: each operation, asked of the running service with the ids of real
   * entities, is answered by a route (not the route layer's 404 for an unknown path nor its 405 for
   * a wrong method), with a status the document lists for it and a body of that status's schema.
   */
  @Test
  public void everyDocumentedOperationIsAnsweredAsDocumented() throws Exception {
    json(service.call("POST", "/watches", root, WATCH.formatted("w1")), 201);
    String runId =
        json(service.call("POST", "/watches/w1/run", root, null), 200).at("/result/runId").asText();
    json(
        service.call(
            "PUT", "/watches/w1/runs/" + runId + "/feedback", root, "{\"kind\": \"useful\"}"),
        200);
    json(service.call("PUT", "/trust-rules/example.org", root, "{\"tier\": \"official\"}"), 200);
    String registration = pushService.subscribe(201).registration("phone");
    String deviceId =
        json(service.call("POST", "/devices", root, registration), 201).get("id").asText();
    // bodies that succeed, so their answers' schemas are checked too; any other operation with a
    // body sends {}
    Map<String, String> bodies =
        new java.util.HashMap<>(
            Map.of(
                "login",
                "{\"email\": \"root@example.org\", \"password\": \"root-passphrase\"}",
                "createWatch",
                WATCH.formatted("w2"),
                "replaceWatch",
                WATCH.formatted("w1"),
                "giveFeedback",
                "{\"kind\": \"wrong\", \"note\": \"it was a rumour\"}",
                "setTrustRule",
                "{\"tier\": \"community\"}",
                "registerDevice",
                registration,
                "setKeyDailyLimit",
                "{\"dailyLimit\": 1000}",
                "setModels",
                Json.text(
                    Map.of(
                        "verdicts",
                        Map.of(
                            "provider",
                            "openai",
                            "baseUrl",
                            NO_MODEL,
                            "model",
                            "m",
                            "price",
                            Map.of("inputPerMillion", 0.15, "outputPerMillion", 0.6)),
                        "assistance",
                        Map.of("provider", "openai", "baseUrl", NO_MODEL, "model", "m"))),
                "createUser",
                "{\"id\": \"dave\", \"email\": \"dave@example.org\", \"role\": \"user\","
                    + " \"password\": \"dave-passphrase\"}"));
    bodies.put("checkNewWatch", WATCH.formatted("w3"));
    bodies.put("checkWatchReplacement", WATCH.formatted("w1"));
    bodies.put("openTelegramChat", "{\"everyone\": true}");
    bodies.put("createApiToken", "{\"name\": \"openapi\"}");
    bodies.put("requestEmailChannelAddress", "{\"address\": \"team@example.org\"}");

    ResponseValidator validator = ResponseValidator.create(vertx, contract(document));
    List<Operation> ordered =
        Stream.concat(
                operations().filter(op -> !op.method().equals("delete")),
                operations().filter(op -> op.method().equals("delete")))
            .toList();
    List<String> problems = new ArrayList<>();
    for (Operation op : ordered) {
      String path =
          op.path()
              .replace("/watches/{id}", "/watches/w1")
              .replace("/account/tokens/{id}", "/account/tokens/no-such-token")
              .replace("/admin/users/{id}", "/admin/users/dave") // createUser made dave
              .replace("{runId}", runId)
              .replace("{n}", "1")
              .replace("/devices/{id}", "/devices/" + deviceId)
              .replace("{pattern}", "example.org")
              .replace("{provider}", "github")
              .replace("{pool}/{id}", "model/" + KeyCipher.fingerprint(MODEL_KEY))
              .replace("{pool}", "model")
              .replace("{chat}", "default")
              .replace("{job}", "no-such-job")
              .replace("{address}", "team@example.org");
      assertFalse(
          "no value for a parameter of " + op.path() + ": give the test one", path.contains("{"));
      String id = op.node().get("operationId").asText();
      String body = op.node().has("requestBody") ? bodies.getOrDefault(id, "{}") : null;
      // signing out ends the token it is sent with: a sign-in of its own
      String token = id.equals("logout") ? service.login("root", "root-passphrase") : root;
      HttpResponse<String> r =
          service.call(op.method().toUpperCase(), path, op.open() ? null : token, body);
      String what = op.key() + " (" + path + ") answered " + r.statusCode() + " " + r.body();
      assertAnsweredByARoute(what, r);
      String contentType = r.headers().firstValue("Content-Type").orElse(null);
      // the validator knows text/plain only without parameters or with a lower-case charset
      if (contentType != null && contentType.startsWith("text/plain")) contentType = "text/plain";
      ValidatableResponse answer =
          r.body().isEmpty()
              ? ValidatableResponse.create(r.statusCode())
              : ValidatableResponse.create(r.statusCode(), Buffer.buffer(r.body()), contentType);
      try {
        await(validator.validate(answer, id));
      } catch (ExecutionException e) {
        problems.add(what + ": " + explained(e.getCause()));
      }
    }
    assertTrue(String.join("\n", problems), problems.isEmpty());
  }

  /**
   * What the route layer answers on its own, before any route: each must be among the statuses the
   * document lists for the operation. Without a token (401), a user on an administrator's route
   * (403), a personal API token without the request's scope (403), a POST or PUT declaring JSON
   * with no body (400), and, for an operation with a body, one that is not JSON (415) or too large
   * (413: 16 KiB on /auth and /admin, 256 KiB elsewhere).
   */
  @Test
  public void everyStatusTheRouteLayerAnswersIsListed() throws Exception {
    List<String> problems = new ArrayList<>();
    for (Operation op : operations().toList()) {
      String path =
          op.path()
              .replaceAll("\\{provider}", "github")
              .replaceAll("\\{pool}", "model")
              .replaceAll("\\{chat}", "default")
              .replaceAll("\\{[A-Za-z]+}", "x");
      String method = op.method().toUpperCase();
      Set<String> listed = new TreeSet<>();
      op.node().get("responses").fieldNames().forEachRemaining(listed::add);
      Map<String, HttpResponse<String>> probes = new java.util.LinkedHashMap<>();
      if (!op.open()) probes.put("without a token", service.call(method, path, null, null));
      if (!op.open() && op.path().startsWith("/admin"))
        probes.put("a user's token", service.call(method, path, alice, null));
      if (!op.open())
        probes.put(
            "a personal API token without the scope",
            service.call(method, path, method.equals("GET") ? writeOnly : readOnly, null));
      String token = op.open() ? null : prober;
      if (method.equals("POST") || method.equals("PUT")) {
        probes.put(
            "JSON declared, no body",
            service.send(method, path, token, "", Map.of("Content-Type", "application/json")));
      }
      if (op.node().has("requestBody")) {
        probes.put(
            "a body that is not JSON",
            service.send(method, path, token, "x", Map.of("Content-Type", "text/plain")));
        // just over the route's limit: a body far past it is cut off with the connection
        int over =
            op.path().startsWith("/auth") || op.path().startsWith("/admin") ? 20_000 : 300_000;
        probes.put(
            "a body over the limit",
            overTheLimit(method, path, token, "{\"x\": \"" + "x".repeat(over) + "\"}"));
      }
      probes.forEach(
          (what, r) -> {
            if (!listed.contains(Integer.toString(r.statusCode())))
              problems.add(op.key() + ", " + what + ": " + r.statusCode() + " is not listed");
          });
    }
    assertTrue(String.join("\n", problems), problems.isEmpty());
  }

  /**
   * The service answers a body over the limit with 413 as soon as the headers say so, then closes
   * the connection; a client still writing the body can see that as a reset before it reads the
   * answer (the JDK's client never gives up waiting once it asks to continue). So it asks again.
   */
  private HttpResponse<String> overTheLimit(String method, String path, String token, String body)
      throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return service.call(method, path, token, body);
      } catch (IOException reset) {
        if (attempt == 3) throw reset;
      }
    }
  }

  @Test
  public void theDocumentIsServedToSignedInCallersOnly() throws Exception {
    HttpApiTest.error(service.call("GET", "/openapi.json", null, null), 401);
    HttpResponse<String> served = service.call("GET", "/openapi.json", alice, null);
    assertEquals(200, served.statusCode());
    assertEquals("application/json", served.headers().firstValue("Content-Type").orElse(""));
    assertEquals(document, Json.MAPPER.readTree(served.body()));
  }

  /**
   * The route layer's own answers for a path no route has (with a token) and for a wrong method.
   */
  static void assertAnsweredByARoute(String what, HttpResponse<String> r) throws Exception {
    assertNotEquals("no route has the method: " + what, 405, r.statusCode());
    if (r.statusCode() == 404) {
      assertNotEquals(
          "no route has the path: " + what,
          ErrorHandling.NO_SUCH_ROUTE,
          Json.MAPPER.readTree(r.body()).path("error").asText());
    }
  }

  record Operation(String path, String method, JsonNode node) {
    String key() {
      return method.toUpperCase() + " " + path;
    }

    /** Public: an empty security requirement instead of the document's bearer token. */
    boolean open() {
      return node.has("security") && node.get("security").isEmpty();
    }
  }

  /** Every operation of the document, in its order. */
  static Stream<Operation> operations() {
    List<Operation> all = new ArrayList<>();
    document
        .get("paths")
        .fields()
        .forEachRemaining(
            path ->
                path.getValue()
                    .fields()
                    .forEachRemaining(
                        op -> {
                          if (METHODS.contains(op.getKey()))
                            all.add(new Operation(path.getKey(), op.getKey(), op.getValue()));
                        }));
    return all.stream();
  }

  /** What {@code from} has and {@code in} does not. */
  static Set<String> missing(Set<String> from, Set<String> in) {
    Set<String> left = new TreeSet<>(from);
    left.removeAll(in);
    return left;
  }

  static String operation(Endpoint e) {
    return e.method().name() + " " + e.path();
  }

  static OpenAPIContract contract(JsonNode candidate) throws Exception {
    // The validator knows no text/event-stream (the run-all job's events); it checks those answers
    // as the plain text they are on the wire.
    String validated = candidate.toString().replace("\"text/event-stream\"", "\"text/plain\"");
    try {
      return await(OpenAPIContract.from(vertx, new JsonObject(validated)));
    } catch (ExecutionException e) {
      throw new AssertionError("not valid OpenAPI 3.1: " + explained(e.getCause()), e);
    }
  }

  static void assertInvalid(String what, JsonNode candidate) throws Exception {
    try {
      await(OpenAPIContract.from(vertx, new JsonObject(candidate.toString())));
      fail("the validator let " + what + " through");
    } catch (ExecutionException expected) {
      // refused, as it must be
    }
  }

  static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  /**
   * Each message of the cause chain, with the schema location when the schema validator gave one.
   */
  static String explained(Throwable failure) {
    return Stream.iterate(failure, t -> t != null, Throwable::getCause)
        .map(
            t ->
                t instanceof JsonSchemaValidationException v
                    ? v.getMessage() + " at " + v.location()
                    : t.getMessage())
        .collect(Collectors.joining(" / "));
  }
}
