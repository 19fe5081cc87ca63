package io.periscope.notify;

/**
 * The result of sending one alert to one channel — for {@code push}, to one device of the channel —
 * as a run record keeps it. {@code device} is the device's id for {@code push}, null otherwise.
 * {@code error} is a short reason for the owner to read (never a token, password or secret URL
 * part), null when delivered.
 */
public record Delivery(String channel, String device, boolean ok, String error) {

  public static Delivery delivered(String channel) {
    return new Delivery(channel, null, true, null);
  }

  public static Delivery failed(String channel, String error) {
    return new Delivery(channel, null, false, error);
  }
}
