package io.periscope.notify;

import java.time.Duration;

/**
 * The result of sending one alert to one channel — for {@code push}, to one device of the channel —
 * as a run record keeps it. {@code device} is the device's id for {@code push}, null otherwise.
 * {@code error} is a short reason for the owner to read (never a token, password or secret URL
 * part), null when delivered.
 *
 * <p>A failure is {@code retryable} when trying again later may succeed (a connection error, a
 * timeout, 408, 425, 429, 5xx, an SMTP 4xx); {@code retryAfter}, when the channel said how long to
 * wait (Retry-After), else null. Any other failure is permanent (another 4xx, a bad address, a
 * channel that does not parse).
 */
public record Delivery(
    String channel,
    String device,
    boolean ok,
    String error,
    boolean retryable,
    Duration retryAfter) {

  public Delivery(String channel, String device, boolean ok, String error) {
    this(channel, device, ok, error, false, null);
  }

  /** The same delivery of another channel identifier (the stored form of the one sent to). */
  public Delivery withChannel(String id) {
    return new Delivery(id, device, ok, error, retryable, retryAfter);
  }

  public static Delivery delivered(String channel) {
    return new Delivery(channel, null, true, null);
  }

  /** A permanent failure: trying again would fail the same way. */
  public static Delivery failed(String channel, String error) {
    return new Delivery(channel, null, false, error);
  }

  /**
   * A failure that may pass; {@code retryAfter} (nullable) is how long the channel asked to wait.
   */
  public static Delivery retryable(String channel, String error, Duration retryAfter) {
    return new Delivery(channel, null, false, error, true, retryAfter);
  }

  /** Whether an HTTP status says the request may succeed later: 408, 425, 429 and 5xx. */
  public static boolean retryableStatus(int code) {
    return code == 408 || code == 425 || code == 429 || code >= 500;
  }
}
