package io.periscope.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * An OpenAI-compatible model on loopback whose verdicts the test decides: each question (the
 * verdict prompt's user text, its second try told apart) is answered by the test's function. Every
 * question is kept, with the model and key it named.
 */
public final class FakeJudge implements AutoCloseable {
  /** What {@link io.periscope.llm.StructuredPrompt#RETRY_NOTE} starts with. */
  private static final String RETRY = "\n\nYour previous answer could not be used:";

  /**
   * One question: the user prompt as first asked, whether this is its second try, and the model and
   * key the request named.
   */
  public record Question(String prompt, boolean retry, String model, String key) {
    /** The condition the prompt asks about. */
    public String condition() {
      return prompt.substring("Condition: ".length(), prompt.indexOf('\n'));
    }
  }

  private final MockWebServer server = new MockWebServer();
  private final List<Question> questions = new CopyOnWriteArrayList<>();

  public FakeJudge(Function<Question, MockResponse> answer) throws IOException {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            if (!request.getPath().equals("/v1/chat/completions"))
              return new MockResponse().setResponseCode(404);
            JsonNode body;
            try {
              body = Json.MAPPER.readTree(request.getBody().readUtf8());
            } catch (IOException e) {
              return new MockResponse().setResponseCode(400);
            }
            String user = body.at("/messages/1/content").asText();
            int retry = user.indexOf(RETRY);
            Question q =
                new Question(
                    retry < 0 ? user : user.substring(0, retry),
                    retry >= 0,
                    body.path("model").asText(),
                    request.getHeader("Authorization").substring("Bearer ".length()));
            questions.add(q);
            return answer.apply(q);
          }
        });
    server.start(java.net.InetAddress.getLoopbackAddress(), 0);
  }

  /** The base URL to configure, with its version segment. */
  public String baseUrl() {
    return server.url("/v1").toString();
  }

  public List<Question> questions() {
    return List.copyOf(questions);
  }

  /**
   * A verdict citing {@code urls}, whose envelope says the call took {@code in} prompt tokens
   * ({@code cached} of them from the cache) and {@code out} answer tokens.
   */
  public static MockResponse verdict(boolean met, List<String> urls, int in, int cached, int out) {
    return answer(
        Json.text(
            Map.of(
                "reasoning",
                "decided by the test",
                "evidence",
                urls.stream().map(u -> Map.of("url", u, "quote", "a quote")).toList(),
                "met",
                met,
                "confidence",
                met ? 0.9 : 0.1,
                "summary",
                met ? "it happened" : "nothing yet")),
        in,
        cached,
        out);
  }

  /** An answer whose content is {@code content}, as the model wrote it. */
  public static MockResponse answer(String content, int in, int cached, int out) {
    return new MockResponse()
        .setHeader("Content-Type", "application/json")
        .setBody(
            Json.text(
                Map.of(
                    "choices",
                    List.of(Map.of("message", Map.of("role", "assistant", "content", content))),
                    "usage",
                    Map.of(
                        "prompt_tokens",
                        in,
                        "completion_tokens",
                        out,
                        "prompt_tokens_details",
                        Map.of("cached_tokens", cached)))));
  }

  @Override
  public void close() throws IOException {
    server.shutdown();
  }
}
