package io.periscope.notify;

import io.periscope.net.SafeHttp;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Asynchronous OkHttp calls for the senders (here and the push channel's), and failure reasons safe
 * to record.
 */
public final class HttpCalls {
  static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  /** Answers are read for their status and an error description only. */
  private static final long MAX_BODY = 64 * 1024;

  private static final int MAX_REASON = 200;

  private HttpCalls() {}

  /** A response with its body read (bounded) and closed. */
  public record Answer(int code, String body, String retryAfterHeader) {
    public boolean ok() {
      return code >= 200 && code < 300;
    }
  }

  /** Runs the call on OkHttp's dispatcher; the caller's thread never waits on the network. */
  public static CompletableFuture<Answer> execute(OkHttpClient client, Request request) {
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    try {
      client
          .newCall(request)
          .enqueue(
              new Callback() {
                @Override
                public void onFailure(Call call, IOException e) {
                  answer.completeExceptionally(e);
                }

                @Override
                public void onResponse(Call call, Response response) {
                  try (response) {
                    ResponseBody body = response.body();
                    String text = body == null ? "" : response.peekBody(MAX_BODY).string();
                    answer.complete(
                        new Answer(response.code(), text, response.header("Retry-After")));
                  } catch (IOException | RuntimeException e) {
                    answer.completeExceptionally(e);
                  }
                }
              });
    } catch (RuntimeException e) {
      answer.completeExceptionally(e);
    }
    return answer;
  }

  /**
   * POSTs to a user-supplied URL (webhook, ntfy, Slack, Discord) and maps the answer to a Delivery:
   * any 2xx is delivered. Reasons name the status or the kind of failure, never the URL, whose path
   * often is the secret.
   */
  static CompletionStage<Delivery> post(
      OkHttpClient client, ChannelId channel, RequestBody body, okhttp3.Headers headers) {
    return send(client, channel, HttpUrl.parse(channel.target()), "POST", body, headers);
  }

  /**
   * As {@link #post}, to {@code url} (derived from the channel's; null when it is not one) with
   * {@code method}. The URL's user part, a channel's credential, is never sent in it nor named.
   */
  static CompletionStage<Delivery> send(
      OkHttpClient client,
      ChannelId channel,
      HttpUrl url,
      String method,
      RequestBody body,
      okhttp3.Headers headers) {
    if (url == null)
      return CompletableFuture.completedFuture(Delivery.failed(channel.id(), "invalid URL"));
    HttpUrl bare = url.newBuilder().username("").password("").build();
    Request request = new Request.Builder().url(bare).headers(headers).method(method, body).build();
    return execute(client, request)
        .handle(
            (answer, failure) -> {
              if (failure != null)
                return failedCall(channel.id(), failure, secrets(channel, url, bare));
              if (answer.ok()) return Delivery.delivered(channel.id());
              String reason = "HTTP " + answer.code();
              return Delivery.retryableStatus(answer.code())
                  ? Delivery.retryable(
                      channel.id(), reason, retryAfter(answer.retryAfterHeader(), Instant.now()))
                  : Delivery.failed(channel.id(), reason);
            });
  }

  /**
   * What a failed call's reason must not show: the channel's URL in each of its forms and parts.
   */
  private static String[] secrets(ChannelId channel, HttpUrl url, HttpUrl bare) {
    return new String[] {
      url.toString(),
      bare.toString(),
      channel.target(),
      url.encodedPath().length() > 1 ? url.encodedPath() : null,
      url.encodedQuery(),
      url.encodedUsername(),
      url.encodedPassword(),
      url.username(),
      url.password()
    };
  }

  /**
   * A call that got no answer: retryable (a refused connection, a timeout, a lost host may come
   * back), except an address the SSRF guard refused, which stays refused.
   */
  static Delivery failedCall(String channel, Throwable failure, String... secrets) {
    String reason = reason(failure, secrets);
    return SafeHttp.refusal(unwrap(failure)).isPresent()
        ? Delivery.failed(channel, reason)
        : Delivery.retryable(channel, reason, null);
  }

  /**
   * A Retry-After header as a wait: delay seconds, or an HTTP date (the wait until then); null when
   * absent or unreadable.
   */
  public static Duration retryAfter(String header, Instant now) {
    if (header == null || header.isBlank()) return null;
    String value = header.trim();
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(value)));
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /** A short reason for a failed call with every given secret masked. */
  public static String reason(Throwable failure, String... secrets) {
    Throwable e = unwrap(failure);
    String reason;
    // A refused address and an unknown name read as a failed connection: a delivery's reason must
    // not tell an internal host's open, closed and filtered ports apart, nor an internal host from
    // a missing one.
    if (SafeHttp.refusal(e).isPresent()
        || e instanceof ConnectException
        || e instanceof UnknownHostException) {
      reason = "could not connect";
    } else if (e instanceof InterruptedIOException) {
      reason = "timed out";
    } else {
      String message = e.getMessage();
      reason =
          message == null || message.isBlank()
              ? e.getClass().getSimpleName()
              : e.getClass().getSimpleName() + ": " + AlertFormat.oneLine(message);
    }
    return AlertFormat.truncate(redact(reason, secrets), MAX_REASON);
  }

  static String redact(String text, String... secrets) {
    String out = text;
    for (String secret : secrets) {
      if (secret != null && !secret.isEmpty()) out = out.replace(secret, "***");
    }
    return out;
  }
}
