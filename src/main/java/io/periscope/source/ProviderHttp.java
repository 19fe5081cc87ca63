package io.periscope.source;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.provider.ProviderCall;
import io.periscope.provider.ProviderFailure;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.jsoup.Jsoup;

/** What the search adapters share: their JSON call, and the parsing of their fields. */
final class ProviderHttp {
  /**
   * Far above any page of results; a bigger answer is a misbehaving upstream, not one to buffer.
   */
  static final long MAX_ANSWER_BYTES = 4L * 1024 * 1024;

  private ProviderHttp() {}

  /** A search provider's JSON call; its messages say "provider", as the pool's reports do. */
  static CompletionStage<JsonNode> json(
      OkHttpClient client, Request request, ProviderCall.Classifier classifier) {
    return ProviderCall.json(client, request, "provider", classifier, MAX_ANSWER_BYTES);
  }

  /**
   * A key that cannot travel in a header fails like a dead key, without a request. Checked here
   * because OkHttp's own refusal quotes the header value in its message for headers it does not
   * know as sensitive. Null when the key is usable.
   */
  static CompletableFuture<List<Item>> unusableKey(String apiKey) {
    boolean usable =
        apiKey != null && !apiKey.isEmpty() && apiKey.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    return usable
        ? null
        : CompletableFuture.failedFuture(
            new ProviderFailure(
                ProviderFailure.Kind.INVALID_KEY,
                null,
                null,
                "the key is empty or has characters an HTTP header cannot carry"));
  }

  /** The operator's base URL, refused early (at start-up) when it is not an http(s) URL. */
  static HttpUrl baseUrl(String provider, String baseUrl) {
    HttpUrl parsed = HttpUrl.parse(baseUrl);
    if (parsed == null)
      throw new IllegalArgumentException(provider + " base URL is not an http(s) URL: " + baseUrl);
    return parsed;
  }

  /**
   * The coarse recency buckets Tavily and SearXNG understand; null past a year (or without
   * recency).
   */
  static String timeRange(Integer recencyDays) {
    if (recencyDays == null || recencyDays <= 0) return null;
    if (recencyDays <= 1) return "day";
    if (recencyDays <= 7) return "week";
    if (recencyDays <= 31) return "month";
    if (recencyDays <= 365) return "year";
    return null;
  }

  /**
   * Snippets arrive with highlighting tags and entities ({@code <strong>}, {@code &#x27;}): plain
   * text only.
   */
  static String plainText(JsonNode node) {
    if (!node.isTextual()) return null;
    String text = Jsoup.parse(node.asText()).text().trim();
    return text.isEmpty() ? null : text;
  }

  static String text(JsonNode node) {
    return node.isTextual() && !node.asText().isBlank() ? node.asText().trim() : null;
  }

  /**
   * A publication date in whatever form a provider uses: ISO with or without offset (a local one is
   * read as UTC), an ISO date, or an HTTP date. Null when absent or unreadable: a date is a nicety,
   * never a reason to fail.
   */
  static Instant date(JsonNode node) {
    String value = text(node);
    if (value == null) return null;
    try {
      return OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException notOffset) {
      // try the next form
    }
    try {
      return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException notLocal) {
      // try the next form
    }
    try {
      return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException notDate) {
      // try the next form
    }
    try {
      return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException unreadable) {
      return null;
    }
  }

  /**
   * A result as an item: the URL is its identity (search results have no guid; {@link
   * ItemIdentity#ofUrl}). Null without a URL.
   */
  static Item item(
      String query, JsonNode title, JsonNode url, JsonNode snippet, JsonNode published) {
    String link = text(url);
    if (link == null) return null;
    ItemIdentity.Named name = ItemIdentity.ofUrl(link);
    return new Item(
        name.identity(),
        plainText(title),
        NormalizedUrls.forDisplay(link),
        plainText(snippet),
        date(published),
        SearchProvider.SOURCE_TYPE,
        query,
        null,
        name.aliases());
  }
}
