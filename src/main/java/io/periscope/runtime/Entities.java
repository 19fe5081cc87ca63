package io.periscope.runtime;

import io.periscope.auth.EmailEntity;
import io.periscope.auth.IdentityLinkEntity;
import io.periscope.channels.ChannelAddressesEntity;
import io.periscope.channels.TelegramChatsEntity;
import io.periscope.devices.DevicesEntity;
import io.periscope.devices.VapidKeyEntity;
import io.periscope.feedback.FeedbackEntity;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.model.ModelConfigEntity;
import io.periscope.owner.OwnerEntity;
import io.periscope.run.RunAllWatches;
import io.periscope.trust.TrustRulesEntity;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * How the rest of the service addresses entities: through cluster sharding when serving, or as
 * plain local actors when the command line works on a stopped service (then it is the journal's
 * only writer). An id no entity can have ({@link EntityIds}) is refused with a 400 here.
 */
public interface Entities {
  RecipientRef<WatchEntity.Command> watch(String owner, String watchId);

  RecipientRef<OwnerEntity.Command> owner(String accountId);

  /** An e-mail address's entity, by the id {@code auth.EmailIndex} gives the address. */
  RecipientRef<EmailEntity.Command> email(String entityId);

  /** An account at an identity provider, by {@code auth.ProviderIdentity#linkId}. */
  RecipientRef<IdentityLinkEntity.Command> identityLink(String linkId);

  RecipientRef<KeyPoolEntity.Command> keyPool(String pool);

  /** The one model configuration of the cluster. */
  RecipientRef<ModelConfigEntity.Command> modelConfig();

  RecipientRef<TrustRulesEntity.Command> trustRules(String owner);

  /** The feedback on one watch's runs: addressed like the watch, by owner and watch id. */
  RecipientRef<FeedbackEntity.Command> feedback(String owner, String watchId);

  RecipientRef<DevicesEntity.Command> devices(String owner);

  /** The cluster's one generated VAPID key pair. */
  RecipientRef<VapidKeyEntity.Command> vapidKey();

  /** The Telegram chats administrators opened to users, cluster-wide. */
  RecipientRef<TelegramChatsEntity.Command> telegramChats();

  /** The addresses an owner's {@code email:} channels may mail. */
  RecipientRef<ChannelAddressesEntity.Command> channelAddresses(String owner);

  /**
   * Starts the watch entities with the run pipeline, and gives owners their run-all. A second step
   * because the pipeline itself reaches the key pools through these entities, and run-all the
   * watches.
   */
  void startRuns(RunPipeline pipeline, RunAllWatches runAll, Clock clock);

  /** Until {@link #startRuns} an owner's run-all fails: runs are not started. */
  RunAllWatches NOT_STARTED =
      (owner, ids) ->
          CompletableFuture.failedFuture(new IllegalStateException("runs are not started"));
}
