package io.periscope.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.provider.ProviderErrors;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * Tavily: {@code POST {base}/search} with a bearer key and a JSON body ({@code query}, {@code
 * max_results}, {@code time_range} day/week/month/year, or {@code start_date} past a year); results
 * in {@code results}.
 */
public final class TavilySearch implements SearchProvider {
  public static final String NAME = "tavily";
  public static final String DEFAULT_BASE_URL = "https://api.tavily.com";

  /** Tavily's own maximum for {@code max_results}. */
  public static final int MAX_COUNT = 20;

  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  private final HttpUrl endpoint;
  private final OkHttpClient client;
  private final Clock clock;

  public TavilySearch(String baseUrl, OkHttpClient client) {
    this(baseUrl, client, Clock.systemUTC());
  }

  /** {@code clock} dates the {@code start_date} used past a year. */
  public TavilySearch(String baseUrl, OkHttpClient client, Clock clock) {
    this.endpoint =
        ProviderHttp.baseUrl(NAME, baseUrl).newBuilder().addPathSegment("search").build();
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
    ObjectNode body =
        Json.MAPPER
            .createObjectNode()
            .put("query", query)
            .put("max_results", Math.max(1, Math.min(MAX_COUNT, count)))
            .put("topic", "general");
    String timeRange = ProviderHttp.timeRange(recencyDays);
    if (timeRange != null) {
      body.put("time_range", timeRange);
    } else if (recencyDays != null && recencyDays > 0) {
      body.put(
          "start_date",
          LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(recencyDays).toString());
    }
    Request request =
        new Request.Builder()
            .url(endpoint)
            .header("Authorization", "Bearer " + apiKey)
            .post(RequestBody.create(Json.bytes(body), JSON))
            .build();
    return ProviderHttp.json(client, request, ProviderErrors::classify)
        .thenApply(answer -> items(query, answer));
  }

  private static List<Item> items(String query, JsonNode answer) {
    List<Item> items = new ArrayList<>();
    for (JsonNode result : answer.path("results")) {
      Item item =
          ProviderHttp.item(
              query,
              result.path("title"),
              result.path("url"),
              result.path("content"),
              result.path("published_date"));
      if (item != null) items.add(item);
    }
    return items;
  }
}
