package io.periscope.llm;

import io.periscope.entity.JsonSerializable;
import java.util.List;

/**
 * Which model is asked, and where: the provider's protocol ({@code openai} or {@code anthropic}),
 * its base URL (no trailing '/') and the model's name; and what its tokens cost, when an
 * administrator said (null otherwise, as in configurations written before prices existed).
 */
public record ModelChoice(String provider, String baseUrl, String model, ModelPrice price)
    implements JsonSerializable {
  public static final String OPENAI = "openai";
  public static final String ANTHROPIC = "anthropic";
  public static final List<String> PROVIDERS = List.of(OPENAI, ANTHROPIC);

  public ModelChoice {
    if (!PROVIDERS.contains(provider)) {
      throw new IllegalArgumentException(
          "unknown model provider '" + provider + "' (openai or anthropic)");
    }
    baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
  }

  /** Without a price. */
  public ModelChoice(String provider, String baseUrl, String model) {
    this(provider, baseUrl, model, null);
  }

  /**
   * The operator's MODEL_PROVIDER, MODEL_BASE_URL and MODEL_NAME: blank or null means {@code
   * openai}, the provider's public API and its default model.
   *
   * @throws IllegalArgumentException for an unknown provider
   */
  public static ModelChoice withDefaults(String provider, String baseUrl, String model) {
    String p = blank(provider) ? OPENAI : provider.trim();
    boolean anthropic = p.equals(ANTHROPIC);
    String defaultBaseUrl =
        anthropic ? AnthropicClient.DEFAULT_BASE_URL : OpenAiCompatibleClient.DEFAULT_BASE_URL;
    String defaultModel =
        anthropic ? AnthropicClient.DEFAULT_MODEL : OpenAiCompatibleClient.DEFAULT_MODEL;
    return new ModelChoice(
        p,
        blank(baseUrl) ? defaultBaseUrl : baseUrl.trim(),
        blank(model) ? defaultModel : model.trim());
  }

  /**
   * Whether a key accepted by {@code other}'s endpoint is accepted by this one: the same provider
   * and base URL.
   */
  boolean sameEndpoint(ModelChoice other) {
    return provider.equals(other.provider) && baseUrl.equals(other.baseUrl);
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
