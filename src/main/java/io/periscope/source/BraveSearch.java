package io.periscope.source;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.provider.ProviderErrors;
import io.periscope.provider.ProviderFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * Brave Search: {@code GET {base}/res/v1/web/search} with {@code X-Subscription-Token}; results in
 * {@code web.results}.
 */
public final class BraveSearch implements SearchProvider {
  public static final String NAME = "brave";
  public static final String DEFAULT_BASE_URL = "https://api.search.brave.com";

  /** Brave's own maximum for {@code count}. */
  public static final int MAX_COUNT = 20;

  private final HttpUrl endpoint;
  private final OkHttpClient client;
  private final Clock clock;

  public BraveSearch(String baseUrl, OkHttpClient client) {
    this(baseUrl, client, Clock.systemUTC());
  }

  /** {@code clock} dates the custom freshness range used past a year. */
  public BraveSearch(String baseUrl, OkHttpClient client, Clock clock) {
    this.endpoint =
        ProviderHttp.baseUrl(NAME, baseUrl)
            .newBuilder()
            .addPathSegments("res/v1/web/search")
            .build();
    this.client = client;
    this.clock = clock;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletionStage<List<Item>> search(
      String query, Integer recencyDays, int count, String apiKey) {
    CompletionStage<List<Item>> refused = ProviderHttp.unusableKey(apiKey);
    if (refused != null) return refused;
    HttpUrl.Builder url =
        endpoint
            .newBuilder()
            .addQueryParameter("q", query)
            .addQueryParameter("count", Integer.toString(Math.max(1, Math.min(MAX_COUNT, count))));
    if (recencyDays != null && recencyDays > 0) {
      url.addQueryParameter(
          "freshness", freshness(recencyDays, LocalDate.now(clock.withZone(ZoneOffset.UTC))));
    }
    Request request =
        new Request.Builder()
            .url(url.build())
            .header("Accept", "application/json")
            .header("X-Subscription-Token", apiKey)
            .get()
            .build();
    return ProviderHttp.json(client, request, BraveSearch::classify)
        .thenApply(body -> items(query, body));
  }

  /**
   * Brave's page-age filter: past day, week, month, year, else an explicit date range ending today.
   */
  static String freshness(int recencyDays, LocalDate today) {
    if (recencyDays <= 1) return "pd";
    if (recencyDays <= 7) return "pw";
    if (recencyDays <= 31) return "pm";
    if (recencyDays <= 365) return "py";
    return today.minusDays(recencyDays) + "to" + today;
  }

  private static List<Item> items(String query, JsonNode body) {
    List<Item> items = new ArrayList<>();
    // Brave leaves out "web" altogether when nothing matched.
    for (JsonNode result : body.path("web").path("results")) {
      Item item =
          ProviderHttp.item(
              query,
              result.path("title"),
              result.path("url"),
              result.path("description"),
              result.path("page_age"));
      if (item != null) items.add(item);
    }
    return items;
  }

  /**
   * The shared rules, plus Brave's {@code X-RateLimit-Reset} ("1, 1419704": seconds until each
   * window — per second, per month — resets) when it sent no Retry-After: the first window for a
   * rate limit, the last for a spent quota.
   */
  private static ProviderFailure classify(int status, Headers headers, String body) {
    ProviderFailure failure = ProviderErrors.classify(status, headers, body);
    String reset = headers.get("X-RateLimit-Reset");
    if (failure.retryAfter() != null || reset == null) return failure;
    String[] windows = reset.split(",");
    String window =
        switch (failure.kind()) {
          case RATE_LIMITED -> windows[0];
          case QUOTA_EXHAUSTED -> windows[windows.length - 1];
          default -> null;
        };
    if (window == null) return failure;
    try {
      Duration wait = Duration.ofSeconds(Long.parseLong(window.trim()));
      return new ProviderFailure(failure.kind(), failure.httpStatus(), wait, failure.getMessage());
    } catch (NumberFormatException unreadable) {
      return failure;
    }
  }
}
