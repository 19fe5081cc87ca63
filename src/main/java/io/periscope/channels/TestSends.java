package io.periscope.channels;

import io.periscope.notify.Alert;
import io.periscope.notify.ChannelPolicy;
import io.periscope.notify.Delivery;
import io.periscope.notify.Notifier;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Test sends: a clearly marked test alert ({@link Alert#test}) to each of some channels at once,
 * once, answering what happened on each, so an owner can tell a wrong URL or token before an alert
 * depends on it. The channels must be ones the owner may use, as when a watch is saved; the
 * deliveries go through the same senders, network guard and hourly allowance as alerts.
 */
public final class TestSends {
  private final ChannelPolicy policy;
  private final Notifier notifier;
  private final Clock clock;

  public TestSends(ChannelPolicy policy, Notifier notifier, Clock clock) {
    this.policy = policy;
    this.notifier = notifier;
    this.clock = clock;
  }

  /**
   * One delivery per channel (per device for {@code push}), in order; fails with a {@code
   * ValidationException} naming the channels the owner may not use, and sends nothing then.
   *
   * @param watchId the watch whose channels are tried, null for channels of no watch
   */
  public CompletionStage<List<Delivery>> send(
      String owner, String watchId, String watchName, List<String> channels) {
    return policy
        .require(owner, channels)
        .thenCompose(
            ok -> notifier.send(channels, Alert.test(owner, watchId, watchName, clock.instant())));
  }
}
