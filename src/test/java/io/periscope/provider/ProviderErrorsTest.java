package io.periscope.provider;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import org.junit.Test;

public class ProviderErrorsTest {
  private static final Instant NOW = Instant.parse("2024-05-01T12:00:00Z");

  private static ProviderFailure classify(int status, String retryAfter, String body) {
    return ProviderErrors.classify(status, retryAfter, body, NOW);
  }

  @Test
  public void aPlain429IsARateLimitWithItsRetryAfter() {
    ProviderFailure failure = classify(429, "30", "{\"error\":{\"message\":\"slow down\"}}");
    assertEquals(ProviderFailure.Kind.RATE_LIMITED, failure.kind());
    assertEquals(Duration.ofSeconds(30), failure.retryAfter());
    assertEquals(Integer.valueOf(429), failure.httpStatus());
  }

  @Test
  public void retryAfterMayBeAnHttpDate() {
    assertEquals(
        Duration.ofSeconds(90), classify(429, "Wed, 01 May 2024 12:01:30 GMT", "").retryAfter());
    assertEquals(
        Duration.ZERO, ProviderErrors.parseRetryAfter("Wed, 01 May 2024 11:00:00 GMT", NOW));
    assertNull(ProviderErrors.parseRetryAfter("soon", NOW));
    assertNull(ProviderErrors.parseRetryAfter(null, NOW));
  }

  @Test
  public void openAiInsufficientQuotaIsAQuotaBehindA429() {
    String body =
        "{\"error\":{\"message\":\"You exceeded your current quota, please check your plan and"
            + " billing"
            + " details.\",\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient"
            + "_quota\"}}";
    ProviderFailure failure = classify(429, null, body);
    assertEquals(ProviderFailure.Kind.QUOTA_EXHAUSTED, failure.kind());
    assertEquals("provider answered HTTP 429 (insufficient_quota)", failure.getMessage());
  }

  @Test
  public void braveTellsRateFromQuotaByCode() {
    String rate =
        "{\"type\":\"ErrorResponse\",\"error\":{\"id\":\"x\",\"status\":429,\"code\":\"RATE_LIMIT"
            + "ED\",\"detail\":\"Request"
            + " rate limit exceeded for"
            + " plan.\",\"meta\":{\"plan\":\"Free\",\"quota_limit\":2000}}}";
    String quota =
        "{\"type\":\"ErrorResponse\",\"error\":{\"id\":\"x\",\"status\":429,\"code\":\"QUOTA_LIMI"
            + "TED\",\"detail\":\"Request"
            + " quota limit exceeded for plan.\",\"meta\":{\"component\":\"rate_limiter\"}}}";
    assertEquals(ProviderFailure.Kind.RATE_LIMITED, classify(429, null, rate).kind());
    assertEquals(ProviderFailure.Kind.QUOTA_EXHAUSTED, classify(429, null, quota).kind());
  }

  @Test
  public void braveBadKeyIsA422() {
    String body =
        "{\"type\":\"ErrorResponse\",\"errors\":[{\"id\":\"x\",\"code\":\"SUBSCRIPTION_TOKEN_INVA"
            + "LID\",\"detail\":\"The"
            + " provided subscription token is invalid.\",\"status\":422}]}";
    assertEquals(ProviderFailure.Kind.INVALID_KEY, classify(422, null, body).kind());
    String validation =
        "{\"type\":\"ErrorResponse\",\"error\":{\"code\":\"VALIDATION\",\"detail\":\"bad count\"}}";
    assertEquals(ProviderFailure.Kind.REJECTED, classify(422, null, validation).kind());
  }

  @Test
  public void unauthorizedAndForbiddenAreInvalidKeys() {
    assertEquals(ProviderFailure.Kind.INVALID_KEY, classify(401, null, "").kind());
    assertEquals(
        ProviderFailure.Kind.INVALID_KEY, classify(403, null, "{\"detail\":\"Forbidden\"}").kind());
  }

  @Test
  public void paymentAndTavilyUsageStatusesAreSpentQuota() {
    assertEquals(ProviderFailure.Kind.QUOTA_EXHAUSTED, classify(402, null, "").kind());
    assertEquals(
        ProviderFailure.Kind.QUOTA_EXHAUSTED,
        classify(432, null, "{\"detail\":{\"error\":\"x\"}}").kind());
    assertEquals(ProviderFailure.Kind.QUOTA_EXHAUSTED, classify(433, null, "").kind());
  }

  @Test
  public void anthropicSpentCreditIsAQuotaEvenAsA400() {
    String body =
        "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Your"
            + " credit balance is too low to access the Anthropic API.\"}}";
    assertEquals(ProviderFailure.Kind.QUOTA_EXHAUSTED, classify(400, null, body).kind());
  }

  @Test
  public void aRejectedRequestEchoingQuotaWordsStaysRejected() {
    String body =
        "{\"error\":{\"code\":\"VALIDATION\",\"detail\":\"query 'billing quota software' too"
            + " long\"}}";
    ProviderFailure failure = classify(400, null, body);
    assertEquals(ProviderFailure.Kind.REJECTED, failure.kind());
    assertFalse(failure.retryable());
  }

  @Test
  public void serverErrorsAndTimeoutsAreTransient() {
    assertEquals(ProviderFailure.Kind.TRANSIENT, classify(500, null, "").kind());
    assertEquals(ProviderFailure.Kind.TRANSIENT, classify(503, "5", "<html>down</html>").kind());
    assertEquals(
        ProviderFailure.Kind.TRANSIENT,
        classify(529, null, "{\"type\":\"overloaded_error\"}").kind());
    assertEquals(ProviderFailure.Kind.TRANSIENT, classify(408, null, "").kind());
    ProviderFailure timeout =
        ProviderErrors.transientFailure(new SocketTimeoutException("timeout"));
    assertEquals(ProviderFailure.Kind.TRANSIENT, timeout.kind());
    assertNull(timeout.httpStatus());
    assertEquals(
        ProviderFailure.Kind.TRANSIENT,
        ProviderErrors.transientFailure(new IOException("reset")).kind());
  }

  @Test
  public void messagesNeverQuoteTheBody() {
    String body =
        "{\"error\":{\"message\":\"Incorrect API key provided:"
            + " sk-secret-123\",\"code\":\"invalid_api_key\"}}";
    ProviderFailure failure = classify(401, null, body);
    assertEquals("provider answered HTTP 401 (invalid_api_key)", failure.getMessage());
  }

  @Test
  public void aKeyEchoedAsTheErrorCodeIsTakenOutOfTheMessageWholeOrInPart() {
    String key = "sk-echo-4f9a8b7c6d5e";
    ProviderFailure whole = classify(401, null, "{\"error\":{\"code\":\"" + key + "\"}}");
    assertTrue("the code is shown as the provider sent it", whole.getMessage().contains(key));

    assertEquals("the provider answered HTTP 401", whole.withoutKey(key).getMessage());
    assertEquals(ProviderFailure.Kind.INVALID_KEY, whole.withoutKey(key).kind());
    ProviderFailure part = classify(403, null, "{\"error\":\"key_sk-echo-4f9a_unknown\"}");
    assertEquals("the provider answered HTTP 403", part.withoutKey(key).getMessage());
    ProviderFailure unrelated = classify(401, null, "{\"error\":{\"code\":\"invalid_api_key\"}}");
    assertSame(unrelated, unrelated.withoutKey(key));
  }

  @Test
  public void otherClientErrorsAreRejected() {
    assertEquals(
        ProviderFailure.Kind.REJECTED, classify(400, null, "{\"error\":\"bad_request\"}").kind());
    assertEquals(ProviderFailure.Kind.REJECTED, classify(404, null, "not found").kind());
  }
}
