package io.periscope.provider;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import okhttp3.Headers;
import okhttp3.OkHttpClient;

/**
 * Turns a model or search provider's error answer into a {@link ProviderFailure}, the same way for
 * every provider. Messages carry the status and the provider's error code at most: never the body
 * (providers echo keys back).
 */
public final class ProviderErrors {
  /** Error codes meaning the key's quota or credit is spent, not that it went too fast. */
  private static final Set<String> QUOTA_CODES =
      Set.of(
          "insufficient_quota", // OpenAI, behind a 429
          "quota_limited", // Brave, behind a 429
          "quota_exceeded",
          "billing_hard_limit_reached", // OpenAI
          "credit_balance_too_low",
          "credit_balance_exhausted", // OpenAI
          "organization_spend_limit_exceeded",
          "project_spend_limit_exceeded",
          "organization_usage_limit_exceeded",
          "enforced_spend_limit_reached", // Anthropic, in error.details.error_code behind a 429
          "billing_error", // Anthropic
          "payment_required");

  /** Error codes meaning the key itself is not accepted. */
  private static final Set<String> INVALID_KEY_CODES =
      Set.of(
          "subscription_token_invalid", // Brave, behind a 422
          "subscription_not_found", // Brave: the key has no plan for this API
          "invalid_api_key", // OpenAI
          "authentication_error", // Anthropic
          "permission_error"); // Anthropic

  /**
   * Error codes meaning only "too fast": these win over any quota-sounding wording in the message.
   */
  private static final Set<String> RATE_CODES =
      Set.of("rate_limited", "rate_limit_exceeded", "rate_limit_error");

  // Wording that gives a spent quota away in a 429 that carries no code.
  private static final Pattern QUOTA_WORDING_IN_429 =
      Pattern.compile("quota|credit|billing|insufficient|usage limit", Pattern.CASE_INSENSITIVE);
  // Elsewhere only unmistakable phrases: a 400 may echo the caller's query, which may say "billing"
  // (Anthropic reports spent credit as a 400 with the first phrase).
  private static final Pattern QUOTA_PHRASES =
      Pattern.compile(
          "credit balance is too low|exceeded your current quota|insufficient_quota|spend limit",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern MODERATION =
      Pattern.compile("moderation|flagged", Pattern.CASE_INSENSITIVE);
  private static final Pattern ERROR_CODE = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,63}");
  private static final int MAX_BODY_CHARS_EXAMINED = 64 * 1024;

  private ProviderErrors() {}

  /** Classifies an answer, reading {@code Retry-After} from OkHttp headers. */
  public static ProviderFailure classify(int status, Headers headers, String body) {
    return classify("provider", status, headers.get("Retry-After"), body, Instant.now());
  }

  /** The same, with the provider's name (never a secret) at the start of the message. */
  public static ProviderFailure classify(
      String provider, int status, Headers headers, String body) {
    return classify(provider, status, headers.get("Retry-After"), body, Instant.now());
  }

  /**
   * Classifies a non-2xx answer. 429 is a rate limit unless its code or wording says the quota is
   * spent (OpenAI's {@code insufficient_quota}, Brave's {@code QUOTA_LIMITED}, Anthropic's {@code
   * enforced_spend_limit_reached}); 402 and Tavily's 432/433 are spent quota; 401, a key-shaped
   * code (Brave's 422 {@code SUBSCRIPTION_TOKEN_INVALID}, Anthropic's {@code
   * authentication_error}/{@code permission_error}) are a bad key; 408, 409 and 5xx are transient;
   * any other 4xx is the request's own fault unless it says the credit is spent. {@code retryAfter}
   * is the raw header value (seconds or an HTTP date), null when absent.
   */
  public static ProviderFailure classify(int status, String retryAfter, String body, Instant now) {
    return classify("provider", status, retryAfter, body, now);
  }

  static ProviderFailure classify(
      String provider, int status, String retryAfter, String body, Instant now) {
    List<String> codes = errorCodes(body);
    String label = "HTTP " + status + (codes.isEmpty() ? "" : " (" + codes.get(0) + ")");
    Duration wait = parseRetryAfter(retryAfter, now);
    ProviderFailure.Kind kind = kind(status, codes, body == null ? "" : body);
    return new ProviderFailure(kind, status, wait, provider + " answered " + label);
  }

  /**
   * After an error answer, closes the client's idle connections, that one included: an upstream
   * that failed may have left more on the connection than it announced (a 401 followed by a stray
   * 200 has been seen), and a reused connection would hand that to the next call as its answer.
   * Error answers are rare; new connections are cheap next to a wrong verdict. {@code response} is
   * closed first so its connection counts as idle.
   */
  public static void forgetConnection(OkHttpClient client, okhttp3.Response response) {
    response.close();
    client.connectionPool().evictAll();
  }

  /** A call that got no answer: a timeout or a broken connection, worth retrying. */
  public static ProviderFailure transientFailure(IOException e) {
    return transientFailure("provider", e);
  }

  public static ProviderFailure transientFailure(String provider, IOException e) {
    String what =
        e instanceof InterruptedIOException
            ? "timed out"
            : "unreachable (" + e.getClass().getSimpleName() + ")";
    return new ProviderFailure(ProviderFailure.Kind.TRANSIENT, null, null, provider + " " + what);
  }

  /** {@code Retry-After} as delay-seconds or an HTTP date; null when absent or unreadable. */
  public static Duration parseRetryAfter(String value, Instant now) {
    if (value == null || value.isBlank()) return null;
    String text = value.trim();
    if (text.matches("\\d{1,9}(\\.\\d{1,3})?")) {
      return Duration.ofMillis(
          Math.round(Double.parseDouble(text) * 1000)); // some providers send "1.5"
    }
    try {
      Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
    } catch (DateTimeParseException notADate) {
      return null;
    }
  }

  private static ProviderFailure.Kind kind(int status, List<String> codes, String body) {
    // 409: Anthropic's conflict_error is retryable; 529: Anthropic overloaded.
    if (status >= 500 || status == 408 || status == 409) return ProviderFailure.Kind.TRANSIENT;
    if (status == 402 || status == 432 || status == 433)
      return ProviderFailure.Kind.QUOTA_EXHAUSTED;
    boolean quotaCode = codes.stream().anyMatch(QUOTA_CODES::contains);
    if (status == 429) {
      boolean rateCode = codes.stream().anyMatch(RATE_CODES::contains);
      boolean quota =
          quotaCode || (!rateCode && QUOTA_WORDING_IN_429.matcher(truncated(body)).find());
      return quota ? ProviderFailure.Kind.QUOTA_EXHAUSTED : ProviderFailure.Kind.RATE_LIMITED;
    }
    if (codes.stream().anyMatch(INVALID_KEY_CODES::contains))
      return ProviderFailure.Kind.INVALID_KEY;
    if (quotaCode || QUOTA_PHRASES.matcher(truncated(body)).find())
      return ProviderFailure.Kind.QUOTA_EXHAUSTED;
    if (status == 401) return ProviderFailure.Kind.INVALID_KEY;
    // OpenRouter answers moderation with a 403: that refuses the request, not the key.
    if (status == 403) {
      return MODERATION.matcher(truncated(body)).find()
          ? ProviderFailure.Kind.REJECTED
          : ProviderFailure.Kind.INVALID_KEY;
    }
    return ProviderFailure.Kind.REJECTED;
  }

  /**
   * The machine-readable error codes of the usual error shapes, lower-cased: {@code error.code},
   * {@code error.type}, {@code errors[].code} (Brave), top-level {@code code} and {@code type}, and
   * {@code error} when it is a string.
   */
  private static List<String> errorCodes(String body) {
    List<String> codes = new ArrayList<>();
    if (body == null || body.isBlank()) return codes;
    JsonNode root;
    try {
      root = Json.parse(truncated(body).getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException notJson) {
      return codes;
    }
    JsonNode error = root.path("error");
    addCode(codes, error.isTextual() ? error : error.path("code"));
    addCode(codes, error.path("type"));
    addCode(codes, error.path("details").path("error_code"));
    root.path("errors").forEach(e -> addCode(codes, e.path("code")));
    addCode(codes, root.path("code"));
    addCode(codes, root.path("type"));
    return codes;
  }

  private static void addCode(List<String> codes, JsonNode node) {
    // Only code-shaped strings: a free-text field could echo what the caller sent.
    if (node.isTextual() && ERROR_CODE.matcher(node.asText()).matches()) {
      codes.add(node.asText().toLowerCase(Locale.ROOT));
    }
  }

  private static String truncated(String body) {
    return body.length() > MAX_BODY_CHARS_EXAMINED
        ? body.substring(0, MAX_BODY_CHARS_EXAMINED)
        : body;
  }
}
