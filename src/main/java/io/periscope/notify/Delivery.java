package io.periscope.notify;

/**
 * The result of sending one alert to one channel, as a run record keeps it. {@code error} is a short reason
 * for the owner to read (never a token, password or secret URL part), null when delivered.
 */
public record Delivery(String channel, boolean ok, String error) {

  public static Delivery delivered(String channel) {
    return new Delivery(channel, true, null);
  }

  public static Delivery failed(String channel, String error) {
    return new Delivery(channel, false, error);
  }
}
