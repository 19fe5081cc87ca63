package io.periscope.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * The {@code telegram} and {@code telegram:<chat id>} channels through the Bot API's sendMessage,
 * in HTML, split at 4096 characters. A 429 is waited out as its {@code parameters.retry_after}
 * asks, within a bound. The token is part of every request URL, so no URL and no unmasked exception
 * text leaves this class.
 */
public final class TelegramSender implements ChannelSender {
  /** Retries after 429s, and seconds waited for them, per message (all its parts together). */
  static final int MAX_RETRIES = 2;

  static final int MAX_WAIT_SECONDS = 30;
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

  private final OkHttpClient client;
  private final TelegramSettings settings;

  /** {@code client} is a plain one: the Bot API is operator-configured, hence trusted. */
  public TelegramSender(OkHttpClient client, TelegramSettings settings) {
    this.client = client.newBuilder().callTimeout(CALL_TIMEOUT).build();
    this.settings = settings;
  }

  public TelegramSettings settings() {
    return settings;
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    String chat = channel.target() != null ? channel.target() : settings.defaultChat().orElse(null);
    if (chat == null)
      return CompletableFuture.completedFuture(
          Delivery.failed(channel.id(), "TELEGRAM_CHAT_ID is not set"));
    return sendHtml(channel.id(), chat, AlertFormat.telegramHtml(alert));
  }

  /**
   * Sends Telegram HTML to a chat, in as many messages as it takes, one after the other so they
   * arrive in order; stops at the first part that fails. {@code channel} names the Delivery.
   */
  public CompletionStage<Delivery> sendHtml(String channel, String chatId, String html) {
    if (!settings.hasToken()) {
      return CompletableFuture.completedFuture(
          Delivery.failed(channel, "TELEGRAM_BOT_TOKEN is not set"));
    }
    HttpUrl url =
        HttpUrl.parse(settings.apiBaseUrl() + "/bot" + settings.botToken() + "/sendMessage");
    if (url == null) {
      return CompletableFuture.completedFuture(
          Delivery.failed(channel, "TELEGRAM_API_BASE_URL is not a URL"));
    }
    List<String> parts = TelegramChunks.split(html, TelegramChunks.LIMIT);
    RetryBudget budget = new RetryBudget();
    CompletableFuture<PartFailure> error = CompletableFuture.completedFuture(null);
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i);
      String label = parts.size() == 1 ? "" : "part " + (i + 1) + " of " + parts.size() + ": ";
      error =
          error.thenCompose(
              previous ->
                  previous != null
                      ? CompletableFuture.completedFuture(previous)
                      : post(url, chatId, part, budget)
                          .thenApply(e -> e == null ? null : e.labelled(label)));
    }
    return error.handle(
        (e, failure) -> {
          if (failure != null) return HttpCalls.failedCall(channel, failure, settings.botToken());
          if (e == null) return Delivery.delivered(channel);
          String reason = HttpCalls.redact(e.reason(), settings.botToken());
          return e.retryable()
              ? Delivery.retryable(channel, reason, e.retryAfter())
              : Delivery.failed(channel, reason);
        });
  }

  /**
   * Why a part was not sent, and whether sending it later may succeed (a 429 past the budget, a
   * 5xx, no answer) after {@code retryAfter} (null when Telegram did not say).
   */
  private record PartFailure(String reason, boolean retryable, Duration retryAfter) {
    PartFailure labelled(String label) {
      return new PartFailure(label + reason, retryable, retryAfter);
    }
  }

  /** Completes with null when Telegram accepted the message, else with why not. */
  private CompletableFuture<PartFailure> post(
      HttpUrl url, String chatId, String text, RetryBudget budget) {
    ObjectNode body =
        Json.MAPPER
            .createObjectNode()
            .put("chat_id", chatId)
            .put("text", text)
            .put("parse_mode", "HTML")
            .put("disable_web_page_preview", true);
    Request request =
        new Request.Builder()
            .url(url)
            .post(RequestBody.create(Json.bytes(body), HttpCalls.JSON))
            .build();
    return HttpCalls.execute(client, request)
        .handle(
            (answer, failure) -> {
              if (failure != null)
                return CompletableFuture.completedFuture(
                    new PartFailure(HttpCalls.reason(failure, settings.botToken()), true, null));
              if (answer.ok()) return CompletableFuture.<PartFailure>completedFuture(null);
              JsonNode json = parse(answer.body());
              if (answer.code() == 429) {
                long wait = retryAfterSeconds(json, answer.retryAfterHeader());
                if (!budget.take(wait)) {
                  return CompletableFuture.completedFuture(
                      new PartFailure(
                          "rate limited by Telegram (retry after " + wait + " s)",
                          true,
                          Duration.ofSeconds(wait)));
                }
                return CompletableFuture.supplyAsync(
                        () -> null, CompletableFuture.delayedExecutor(wait, TimeUnit.SECONDS))
                    .thenCompose(ignored -> post(url, chatId, text, budget));
              }
              String description = json.path("description").asText("");
              return CompletableFuture.completedFuture(
                  new PartFailure(
                      "Telegram answered "
                          + answer.code()
                          + (description.isBlank()
                              ? ""
                              : ": " + AlertFormat.truncate(AlertFormat.oneLine(description), 150)),
                      Delivery.retryableStatus(answer.code()),
                      null));
            })
        .thenCompose(stage -> stage);
  }

  private static JsonNode parse(String body) {
    try {
      return Json.MAPPER.readTree(body);
    } catch (Exception e) {
      return Json.MAPPER.missingNode();
    }
  }

  /**
   * The Bot API's {@code parameters.retry_after}, else an HTTP Retry-After in seconds, else one
   * second.
   */
  private static long retryAfterSeconds(JsonNode json, String header) {
    JsonNode parameter = json.path("parameters").path("retry_after");
    if (parameter.canConvertToLong() && parameter.asLong() >= 0) return parameter.asLong();
    try {
      return Math.max(0, Long.parseLong(header == null ? "" : header.trim()));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /**
   * What is left of a message's retries and waiting; shared by its parts, which are sent one at a
   * time.
   */
  private static final class RetryBudget {
    private int retries = MAX_RETRIES;
    private long seconds = MAX_WAIT_SECONDS;

    synchronized boolean take(long wait) {
      if (retries == 0 || wait > seconds) return false;
      retries--;
      seconds -= wait;
      return true;
    }
  }
}
