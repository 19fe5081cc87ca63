package io.periscope.notify;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Web Push to the alert's owner's registered devices: the {@code push} channel. Unlike the other
 * channels it fans out, one delivery per device. It belongs to the device registry ({@code
 * io.periscope.devices}), which provides it to the {@link Notifier}; without one, {@code push}
 * deliveries fail as not configured.
 */
public interface PushSender {
  /**
   * Never throws and never completes exceptionally: one {@link Delivery} (channel {@code push}, the
   * device's id) per device of {@code alert.owner()}, or a single failed one when there is nothing
   * to send to.
   */
  CompletionStage<List<Delivery>> send(Alert alert);
}
