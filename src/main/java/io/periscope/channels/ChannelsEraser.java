package io.periscope.channels;

import io.periscope.account.AccountDataEraser;
import io.periscope.entity.Asks;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * What a deleted account's channels leave behind: the addresses its {@code email:} channels may
 * mail (removed with no daily limit: the budget of address changes is for the account's own
 * changes) and its webhook secret.
 */
public final class ChannelsEraser implements AccountDataEraser {
  private final ChannelAddressesEntity.Refs channelAddresses;
  private final WebhookSecretStore webhookSecrets;
  private final Asks asks;
  private final Clock clock;

  public ChannelsEraser(
      ChannelAddressesEntity.Refs channelAddresses,
      WebhookSecretStore webhookSecrets,
      Asks asks,
      Clock clock) {
    this.channelAddresses = channelAddresses;
    this.webhookSecrets = webhookSecrets;
    this.asks = asks;
    this.clock = clock;
  }

  @Override
  public CompletionStage<Done> erase(
      String accountId, List<String> watchIds, boolean eraseHistory) {
    return asks.<ChannelAddressesEntity.Command, ChannelAddressesEntity.Addresses>ask(
            channelAddresses.channelAddresses(accountId), ChannelAddressesEntity.Get::new)
        .thenCompose(
            found ->
                AccountDataEraser.removeEach(
                    found.addresses(),
                    a ->
                        asks.<ChannelAddressesEntity.Command, Done>ask(
                            channelAddresses.channelAddresses(accountId),
                            reply ->
                                new ChannelAddressesEntity.Remove(
                                    a.address(),
                                    clock.instant(),
                                    ChannelAddressesEntity.Budgets.NONE,
                                    reply))))
        .thenCompose(d -> AccountDataEraser.ignoringRefusal(webhookSecrets.remove(accountId)));
  }
}
