package io.periscope.model;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import okhttp3.OkHttpClient;
import org.junit.Test;

public class ModelClientsTest {
  private static final OkHttpClient HTTP = new OkHttpClient();

  @Test
  public void eachProviderHasItsPublicApiAndModelByDefault() {
    HttpModelClient openai = (HttpModelClient) ModelClients.create("openai", null, " ", HTTP);
    HttpModelClient anthropic = (HttpModelClient) ModelClients.create("anthropic", "", null, HTTP);

    assertTrue(openai instanceof OpenAiCompatibleClient);
    assertEquals("https://api.openai.com/v1", openai.baseUrl);
    assertEquals("gpt-4o-mini", openai.model());
    assertTrue(anthropic instanceof AnthropicClient);
    assertEquals("https://api.anthropic.com", anthropic.baseUrl);
    assertEquals("claude-3-5-haiku-latest", anthropic.model());
    assertEquals("anthropic", anthropic.provider());
  }

  @Test
  public void theOperatorsBaseUrlAndModelWin() {
    HttpModelClient local = (HttpModelClient) ModelClients.create("openai", "http://127.0.0.1:11434/v1/", "llama3", HTTP);

    assertEquals("http://127.0.0.1:11434/v1", local.baseUrl);
    assertEquals("llama3", local.model());
  }

  @Test
  public void anUnknownProviderIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelClients.create("gemini", null, null, HTTP));
    assertTrue(e.getMessage().contains("gemini"));
  }
}
