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
  private final SealedChannels sealed;
  private final Clock clock;

  public TestSends(ChannelPolicy policy, Notifier notifier, SealedChannels sealed, Clock clock) {
    this.policy = policy;
    this.notifier = notifier;
    this.sealed = sealed;
    this.clock = clock;
  }

  /**
   * One delivery per channel (per device for {@code push}), in order; fails with a {@code
   * ValidationException} naming the channels the owner may not use, and sends nothing then.
   *
   * @param watchId the watch whose channels are tried, null for channels of no watch
   * @param channels as stored (a watch's, their credentials sealed) or as sent; the deliveries name
   *     them masked
   */
  public CompletionStage<List<Delivery>> send(
      String accountId, String watchId, String watchName, List<String> channels) {
    List<String> plain;
    try {
      plain = channels.stream().map(sealed::open).toList();
    } catch (IllegalStateException e) {
      plain = channels;
    }
    return policy
        .require(accountId, plain)
        .thenCompose(
            ok ->
                notifier.send(channels, Alert.test(accountId, watchId, watchName, clock.instant())))
        .thenApply(
            sent ->
                sent.stream()
                    .map(d -> d.withChannel(io.periscope.notify.ChannelMask.mask(d.channel())))
                    .toList());
  }
}
