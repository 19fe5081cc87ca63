package io.periscope.model;

import okhttp3.OkHttpClient;

/** The model client for the operator's MODEL_PROVIDER, MODEL_BASE_URL and MODEL_NAME, with each provider's defaults. */
public final class ModelClients {
  private ModelClients() {}

  /**
   * @param provider {@code openai} (any OpenAI-compatible server) or {@code anthropic}
   * @param baseUrl null or blank for the provider's public API
   * @param modelName null or blank for the provider's default model
   * @param http carries the timeouts; shared, so calls reuse its connections
   */
  public static ModelClient create(String provider, String baseUrl, String modelName, OkHttpClient http) {
    String p = provider == null || provider.isBlank() ? "openai" : provider.trim();
    return switch (p) {
      case "openai" -> new OpenAiCompatibleClient(
          or(baseUrl, OpenAiCompatibleClient.DEFAULT_BASE_URL), or(modelName, OpenAiCompatibleClient.DEFAULT_MODEL), http);
      case "anthropic" -> new AnthropicClient(
          or(baseUrl, AnthropicClient.DEFAULT_BASE_URL), or(modelName, AnthropicClient.DEFAULT_MODEL), http);
      default -> throw new IllegalArgumentException("unknown model provider '" + p + "' (openai or anthropic)");
    };
  }

  private static String or(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value.trim();
  }
}
