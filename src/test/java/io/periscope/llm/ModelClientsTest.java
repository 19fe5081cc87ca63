package io.periscope.llm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import okhttp3.OkHttpClient;
import org.junit.Test;

public class ModelClientsTest {
  private static final OkHttpClient HTTP = new OkHttpClient();

  private static HttpModelClient client(String provider, String baseUrl, String model) {
    return (HttpModelClient)
        ModelClients.create(ModelChoice.withDefaults(provider, baseUrl, model), HTTP);
  }

  @Test
  public void eachProviderHasItsPublicApiAndModelByDefault() {
    HttpModelClient openai = client("openai", null, " ");
    HttpModelClient anthropic = client("anthropic", "", null);

    assertTrue(openai instanceof OpenAiCompatibleClient);
    assertEquals("https://api.openai.com/v1", openai.baseUrl);
    assertEquals("gpt-4o-mini", openai.model());
    assertTrue(anthropic instanceof AnthropicClient);
    assertEquals("https://api.anthropic.com", anthropic.baseUrl);
    assertEquals("claude-3-5-haiku-latest", anthropic.model());
    assertEquals("anthropic", anthropic.provider());
    assertEquals("openai", client(" ", null, null).provider());
  }

  @Test
  public void theOperatorsBaseUrlAndModelWin() {
    HttpModelClient local = client("openai", "http://127.0.0.1:11434/v1/", "llama3");

    assertEquals("http://127.0.0.1:11434/v1", local.baseUrl);
    assertEquals("llama3", local.model());
  }

  @Test
  public void anUnknownProviderIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> client("gemini", null, null));
    assertTrue(e.getMessage().contains("gemini"));
  }
}
