package io.periscope.source;

import java.util.Locale;
import okhttp3.OkHttpClient;

/** Builds the configured search provider ({@code SEARCH_PROVIDER}, {@code SEARCH_BASE_URL}). */
public final class SearchProviders {
  private SearchProviders() {}

  /**
   * {@code baseUrl} null or blank means the provider's public endpoint; SearXNG has none, so it
   * needs one.
   *
   * @throws IllegalArgumentException for an unknown provider, a missing SearXNG base URL or an
   *     unusable URL
   */
  public static SearchProvider create(String provider, String baseUrl, OkHttpClient client) {
    boolean noBase = baseUrl == null || baseUrl.isBlank();
    String name = provider == null ? "" : provider.trim().toLowerCase(Locale.ROOT);
    return switch (name) {
      case BraveSearch.NAME ->
          new BraveSearch(noBase ? BraveSearch.DEFAULT_BASE_URL : baseUrl.trim(), client);
      case TavilySearch.NAME ->
          new TavilySearch(noBase ? TavilySearch.DEFAULT_BASE_URL : baseUrl.trim(), client);
      case SearxngSearch.NAME -> {
        if (noBase)
          throw new IllegalArgumentException(
              "searxng needs SEARCH_BASE_URL (it has no public default)");
        yield new SearxngSearch(baseUrl.trim(), client);
      }
      default ->
          throw new IllegalArgumentException(
              "unknown search provider '" + provider + "' (expected brave, tavily or searxng)");
    };
  }
}
