package io.periscope.notify;

import java.util.concurrent.CompletionStage;

/** Delivers event alerts to one kind of channel. */
public interface ChannelSender {
  /** Never throws and never completes exceptionally: every failure is a failed {@link Delivery}. */
  CompletionStage<Delivery> send(ChannelId channel, Alert alert);
}
