package io.periscope.llm;

import static io.periscope.llm.Outcomes.failure;
import static io.periscope.llm.Outcomes.value;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Asks;
import io.periscope.json.Json;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.persistence.JournalSchema;
import io.periscope.runtime.LocalEntities;
import io.periscope.testing.FakeJudge;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.TestJournals;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Asking through the model key pool against a loopback model: an unusable answer is asked for once
 * more.
 */
public class PooledModelTest {
  private static ActorTestKit testKit;
  private static KeyPools keyPools;

  private MockWebServer server;
  private PooledModel model;

  @BeforeClass
  public static void startKeyPools() throws Exception {
    testKit = ActorTestKit.create(TestJournals.h2());
    JournalSchema.create(testKit.system());
    keyPools =
        new KeyPools(
            new LocalEntities(testKit.system()),
            new Asks(testKit.system(), Duration.ofSeconds(10)),
            new KeyCipher("pooled-model-test-secret-of-32-bytes!"),
            LoggedAlerts.create(),
            Clock.systemUTC());
    keyPools
        .seed(KeyPoolEntity.MODEL, List.of("sk-pooled-test-0001"))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  @AfterClass
  public static void stopKeyPools() {
    testKit.shutdownTestKit();
  }

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start(java.net.InetAddress.getLoopbackAddress(), 0);
    ModelClient client =
        new OpenAiCompatibleClient(server.url("/v1").toString(), "m", new OkHttpClient());
    model = new PooledModel(() -> CompletableFuture.completedFuture(client), keyPools);
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  private static final StructuredPrompt PROMPT =
      new StructuredPrompt(
          "system",
          "the task",
          "answer",
          Json.MAPPER.createObjectNode().put("type", "object"),
          100);

  private void answers(String... contents) {
    for (String content : contents) server.enqueue(FakeJudge.answer(content, 0, 0, 0));
  }

  /** Reads {"n": number}, naming what is wrong otherwise. */
  private static int read(JsonNode answer) {
    if (!answer.path("n").isInt()) throw new InvalidModelOutput("n must be a whole number");
    return answer.get("n").asInt();
  }

  private String userPromptOf(int request) throws Exception {
    JsonNode body = Json.MAPPER.readTree(server.takeRequest().getBody().readUtf8());
    assertEquals("request " + request, "user", body.at("/messages/1/role").asText());
    return body.at("/messages/1/content").asText();
  }

  @Test
  public void aUsableAnswerIsReadOnce() throws Exception {
    answers("{\"n\": 3}");
    PooledModel.Answer<Integer> answer = value(model.ask(PROMPT, PooledModelTest::read));
    assertEquals(3, (int) answer.value());
    assertEquals("openai:m", answer.model());
    assertEquals(1, server.getRequestCount());
  }

  @Test
  public void theModelIsChosenAsEachQuestionStartsAndBothTriesOfAQuestionAskTheSame()
      throws Exception {
    AtomicInteger choices = new AtomicInteger();
    model =
        new PooledModel(
            () ->
                CompletableFuture.completedFuture(
                    new OpenAiCompatibleClient(
                        server.url("/v1").toString(),
                        "m" + choices.incrementAndGet(),
                        new OkHttpClient())),
            keyPools);
    answers("{\"n\": \"three\"}", "{\"n\": 3}", "{\"n\": 4}");

    assertEquals("openai:m1", value(model.ask(PROMPT, PooledModelTest::read)).model());
    assertEquals("openai:m2", value(model.ask(PROMPT, PooledModelTest::read)).model());
    List<String> asked =
        List.of(
            modelOf(server.takeRequest()),
            modelOf(server.takeRequest()),
            modelOf(server.takeRequest()));
    assertEquals(List.of("m1", "m1", "m2"), asked);
  }

  private static String modelOf(okhttp3.mockwebserver.RecordedRequest request) throws Exception {
    return Json.MAPPER.readTree(request.getBody().readUtf8()).get("model").asText();
  }

  @Test
  public void anUnusableAnswerIsAskedForOnceMoreNamingItsProblems() throws Exception {
    answers("{\"n\": \"three\"}", "{\"n\": 3}");
    assertEquals(3, (int) value(model.ask(PROMPT, PooledModelTest::read)).value());
    assertEquals("the task", userPromptOf(1));
    assertEquals(
        "the task\n\nYour previous answer could not be used:\n- n must be a whole number\n"
            + "Answer again with an instance of the schema that fixes these problems.",
        userPromptOf(2));
  }

  @Test
  public void twoUnusableAnswersFailWithTheSecondsProblems() throws Exception {
    answers("not json at all", "{\"n\": \"three\"}");
    Throwable failed = failure(model.ask(PROMPT, PooledModelTest::read));
    assertTrue(failed instanceof InvalidModelOutput);
    assertEquals(List.of("n must be a whole number"), ((InvalidModelOutput) failed).problems());
    userPromptOf(1);
    assertTrue(userPromptOf(2).contains("- the answer is not JSON\n"));
    assertFalse("no third try", server.getRequestCount() > 2);
  }

  @Test
  public void anAnswerCarriesWhatEveryCallOfItsQuestionTookAndCost() throws Exception {
    ModelPrice price = new ModelPrice(new BigDecimal("2"), null, new BigDecimal("10"));
    ModelClient priced =
        new OpenAiCompatibleClient(server.url("/v1").toString(), "m", price, new OkHttpClient());
    model = new PooledModel(() -> CompletableFuture.completedFuture(priced), keyPools);
    server.enqueue(FakeJudge.answer("{\"n\": \"three\"}", 1_000, 0, 20));
    server.enqueue(FakeJudge.answer("{\"n\": 3}", 1_100, 0, 10));
    List<ModelUsage> told = new CopyOnWriteArrayList<>();

    PooledModel.Answer<Integer> answer =
        value(model.ask(PROMPT, PooledModelTest::read, m -> {}, told::add));

    // (1,000 + 1,100) × 2 + (20 + 10) × 10 = 4,500 per million
    assertEquals(new ModelUsage(2, 2_100, 0, 30, new BigDecimal("0.0045")), answer.usage());
    assertEquals(
        List.of(
            new ModelUsage(1, 1_000, 0, 20, new BigDecimal("0.0022")),
            new ModelUsage(1, 1_100, 0, 10, new BigDecimal("0.0023"))),
        told);
  }

  @Test
  public void theTokensOfAQuestionThatFailsAreToldAndAModelWithoutAPriceHasNoCost()
      throws Exception {
    server.enqueue(FakeJudge.answer("not json at all", 900, 0, 15));
    // a refused request, which no other key changes: no retry
    server.enqueue(
        new MockResponse()
            .setResponseCode(400)
            .setHeader("Content-Type", "application/json")
            .setBody("{\"error\": {\"message\": \"context too long\"}}"));
    List<ModelUsage> told = new CopyOnWriteArrayList<>();

    failure(model.ask(PROMPT, PooledModelTest::read, m -> {}, told::add));

    assertEquals(List.of(new ModelUsage(1, 900, 0, 15, null)), told);
  }

  @Test
  public void theProtocolDocumentQuotesTheRetryNote() throws Exception {
    String doc = java.nio.file.Files.readString(java.nio.file.Path.of("docs/model-protocol.md"));
    String note = StructuredPrompt.RETRY_NOTE.formatted("<problems, one \"- \" line each>");
    assertTrue("docs/model-protocol.md must quote the retry note as:\n" + note, doc.contains(note));
  }
}
