package io.periscope.llm;

import okhttp3.OkHttpClient;

/** The model client for a {@link ModelChoice}. */
public final class ModelClients {
  private ModelClients() {}

  /**
   * @param http carries the timeouts; shared, so calls reuse its connections
   */
  public static ModelClient create(ModelChoice choice, OkHttpClient http) {
    return choice.provider().equals(ModelChoice.ANTHROPIC)
        ? new AnthropicClient(choice.baseUrl(), choice.model(), choice.price(), http)
        : new OpenAiCompatibleClient(choice.baseUrl(), choice.model(), choice.price(), http);
  }
}
