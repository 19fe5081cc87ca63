package io.periscope.llm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;

import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import java.math.BigDecimal;
import java.util.List;
import org.junit.Test;

public class ModelConfigurationTest {
  private static ModelConfiguration parse(String json) throws Exception {
    return ModelConfiguration.parse(Json.MAPPER.readTree(json));
  }

  private static List<Issue> issues(String json) {
    return assertThrows(ValidationException.class, () -> parse(json)).issues();
  }

  @Test
  public void aCompleteBodyIsTheConfigurationTrimmed() throws Exception {
    ModelConfiguration c =
        parse(
            """
            {"verdicts": {"provider": "OpenAI", "baseUrl": " http://127.0.0.1:11434/v1/ ", \
            "model": " llama3 "},
             "assistance": {"provider": "anthropic", "baseUrl": "https://api.anthropic.com", \
            "model": "claude"},
             "ignored": true}\
            """);
    assertEquals(new ModelChoice("openai", "http://127.0.0.1:11434/v1", "llama3"), c.verdicts());
    assertEquals(
        new ModelChoice("anthropic", "https://api.anthropic.com", "claude"), c.assistance());
  }

  @Test
  public void everyProblemIsNamedByItsPath() {
    assertEquals(
        List.of(
            Issue.at("must be openai or anthropic", "verdicts", "provider"),
            Issue.at("must be an absolute http(s) URL", "verdicts", "baseUrl"),
            Issue.at("must be a non-empty string", "verdicts", "model"),
            Issue.at("is required", "assistance")),
        issues(
            """
            {"verdicts": {"provider": "gemini", "baseUrl": "ftp://models.example", "model": " "}}\
            """));
    assertEquals(
        List.of(
            Issue.at(
                "must not carry credentials (keys belong in the key pool)", "verdicts", "baseUrl"),
            Issue.at("must not have a query or a fragment", "assistance", "baseUrl"),
            Issue.at("is required", "assistance", "model")),
        issues(
            """
            {"verdicts": {"provider": "openai", "baseUrl": \
            "https://user:sk-secret@models.example/v1", "model": "m"},
             "assistance": {"provider": "openai", "baseUrl": "https://models.example/v1?key=x"}}\
            """));
    assertEquals(
        List.of(
            Issue.at("must be an absolute http(s) URL", "verdicts", "baseUrl"),
            Issue.at("must be an object {provider, baseUrl, model, price?}", "assistance")),
        issues(
            """
            {"verdicts": {"provider": "openai", "baseUrl": "/v1", "model": "m"}, "assistance": \
            "same"}\
            """));
    assertEquals(1, issues("[]").size());
  }

  @Test
  public void aPriceIsOptionalAndItsCachedInputPriceToo() throws Exception {
    ModelConfiguration c =
        parse(
            """
            {"verdicts": {"provider": "openai", "baseUrl": "https://api.openai.com/v1",             "model": "gpt-4o-mini", "price": {"inputPerMillion": 0.150, "cachedInputPerMillion":             0.075, "outputPerMillion": 0.6}},
             "assistance": {"provider": "anthropic", "baseUrl": "https://api.anthropic.com",             "model": "claude", "price": {"inputPerMillion": 1, "outputPerMillion": 5.00}}}\
            """);
    assertEquals(
        new ModelPrice(new BigDecimal("0.15"), new BigDecimal("0.075"), new BigDecimal("0.6")),
        c.verdicts().price());
    assertEquals(new ModelPrice(BigDecimal.ONE, null, new BigDecimal("5")), c.assistance().price());
    assertEquals(
        "a price reads back as it was written",
        "{\"inputPerMillion\":1,\"outputPerMillion\":5}",
        Json.text(c.assistance().price()));
    assertNull(
        parse(
                """
                {"verdicts": {"provider": "openai", "baseUrl": "https://a.example/v1",                 "model": "m", "price": null},
                 "assistance": {"provider": "openai", "baseUrl": "https://a.example/v1",                 "model": "m"}}\
                """)
            .verdicts()
            .price());
  }

  @Test
  public void aPriceThatIsNoAmountIsNamedByItsPath() {
    String bound = "must be a number from 0 to 100000 (per million tokens)";
    assertEquals(
        List.of(
            Issue.at(bound, "verdicts", "price", "inputPerMillion"),
            Issue.at(bound, "verdicts", "price", "cachedInputPerMillion"),
            Issue.at("is required", "verdicts", "price", "outputPerMillion"),
            Issue.at(
                "must be an object {inputPerMillion, cachedInputPerMillion?, outputPerMillion}",
                "assistance",
                "price")),
        issues(
            """
            {"verdicts": {"provider": "openai", "baseUrl": "https://a.example/v1", "model": "m",             "price": {"inputPerMillion": "0.15", "cachedInputPerMillion": -1}},
             "assistance": {"provider": "openai", "baseUrl": "https://a.example/v1", "model": "m",             "price": 0.15}}\
            """));
    assertEquals(
        List.of(
            Issue.at(bound, "verdicts", "price", "inputPerMillion"),
            Issue.at(bound, "verdicts", "price", "outputPerMillion")),
        issues(
            """
            {"verdicts": {"provider": "openai", "baseUrl": "https://a.example/v1", "model": "m",             "price": {"inputPerMillion": 150000, "outputPerMillion": 1e400}},
             "assistance": {"provider": "openai", "baseUrl": "https://a.example/v1", "model": "m"}}\
            """));
  }

  @Test
  public void aKeyMustBeAcceptedAtEachDistinctEndpoint() {
    ModelChoice judge = new ModelChoice("openai", "https://models.example/v1", "judge");
    ModelChoice helper = new ModelChoice("openai", "https://models.example/v1/", "helper");
    ModelChoice elsewhere = new ModelChoice("anthropic", "https://api.anthropic.com", "claude");
    assertEquals(List.of(judge), new ModelConfiguration(judge, helper).endpoints());
    assertEquals(List.of(judge, elsewhere), new ModelConfiguration(judge, elsewhere).endpoints());
  }
}
