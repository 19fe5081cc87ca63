package io.periscope.source;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A web search API configured by the operator (trusted: plain HTTP, not the SSRF-guarded client).
 * Failures complete the stage with a classified {@link io.periscope.provider.ProviderFailure}, so
 * the search key pool can cool down or retire the key. Items carry {@code sourceType} "search", the
 * query as {@code sourceValue}, the result URL as identity, and no trust (the watch's source
 * supplies it).
 */
public interface SearchProvider {
  String SOURCE_TYPE = "search";

  /** The provider's configuration name: {@code brave}, {@code tavily} or {@code searxng}. */
  String name();

  /**
   * At most {@code count} results for {@code query}, narrowed to the last {@code recencyDays} days
   * when not null. {@code apiKey} may be null for providers that need none.
   */
  CompletionStage<List<Item>> search(String query, Integer recencyDays, int count, String apiKey);

  /** What a key probe searches for. */
  String PROBE_QUERY = "periscope";

  /**
   * Checks that the provider accepts {@code apiKey} with the smallest search it offers (one result;
   * most providers count it against the key's quota): completes normally or with a classified
   * failure.
   */
  default CompletionStage<Void> probe(String apiKey) {
    return search(PROBE_QUERY, null, 1, apiKey).thenApply(results -> null);
  }
}
