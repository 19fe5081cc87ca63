package io.periscope.source;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.provider.ProviderErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * A SearXNG instance: {@code GET {base}/search?q=…&format=json&time_range=…}; results in {@code
 * results}. It needs no key; one given is sent as a bearer token (for an instance behind an
 * authenticating proxy). SearXNG has no result count parameter, so the answer is cut to {@code
 * count}.
 */
public final class SearxngSearch implements SearchProvider {
  public static final String NAME = "searxng";

  private final HttpUrl endpoint;
  private final OkHttpClient client;

  public SearxngSearch(String baseUrl, OkHttpClient client) {
    this.endpoint =
        ProviderHttp.baseUrl(NAME, baseUrl).newBuilder().addPathSegment("search").build();
    this.client = client;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletionStage<List<Item>> search(
      String query, Integer recencyDays, int count, String apiKey) {
    HttpUrl.Builder url =
        endpoint.newBuilder().addQueryParameter("q", query).addQueryParameter("format", "json");
    String timeRange = ProviderHttp.timeRange(recencyDays);
    if (timeRange != null) url.addQueryParameter("time_range", timeRange);
    Request.Builder request =
        new Request.Builder().url(url.build()).header("Accept", "application/json").get();
    if (apiKey != null && !apiKey.isBlank()) {
      CompletionStage<List<Item>> refused = ProviderHttp.unusableKey(apiKey);
      if (refused != null) return refused;
      request.header("Authorization", "Bearer " + apiKey);
    }
    return ProviderHttp.json(client, request.build(), ProviderErrors::classify)
        .thenApply(answer -> items(query, answer, count));
  }

  private static List<Item> items(String query, JsonNode answer, int count) {
    List<Item> items = new ArrayList<>();
    for (JsonNode result : answer.path("results")) {
      if (items.size() >= count) break;
      Item item =
          ProviderHttp.item(
              query,
              result.path("title"),
              result.path("url"),
              result.path("content"),
              result.path("publishedDate"));
      if (item != null) items.add(item);
    }
    return items;
  }
}
