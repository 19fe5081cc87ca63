package io.periscope.runtime;

import io.periscope.account.AccountEntity;
import io.periscope.account.RunAllEntity;
import io.periscope.auth.AdminTurnsEntity;
import io.periscope.auth.AuditLogEntity;
import io.periscope.auth.EmailEntity;
import io.periscope.auth.IdentityLinkEntity;
import io.periscope.auth.MailBudgetEntity;
import io.periscope.backtest.BacktestEntity;
import io.periscope.channels.ChannelAddressesEntity;
import io.periscope.channels.TelegramChatsEntity;
import io.periscope.channels.WebhookSecretEntity;
import io.periscope.devices.DevicesEntity;
import io.periscope.devices.VapidKeyEntity;
import io.periscope.entity.EntityIds;
import io.periscope.feedback.FeedbackEntity;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.llm.ModelConfigEntity;
import io.periscope.llm.UsageEntity;
import io.periscope.quota.QuotaEntity;
import io.periscope.run.RunAllWatches;
import io.periscope.trust.TrustRulesEntity;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;

/**
 * Entities spread over the cluster by Pekko Cluster Sharding: one live instance of each id,
 * anywhere.
 */
public final class ShardedEntities implements Entities {
  private final ActorSystem<?> system;
  private final ClusterSharding sharding;

  /** Addresses the entities of {@code system}, which a node's {@link #start} registers. */
  public ShardedEntities(ActorSystem<?> system) {
    this.system = system;
    this.sharding = ClusterSharding.get(system);
  }

  @Override
  public void start(
      RunPipeline pipeline, RunAllWatches runAll, BacktestEntity.Runner backtests, Clock clock) {
    EntityTypes.Parts parts = new EntityTypes.Parts(pipeline, runAll, backtests, clock, this);
    for (EntityTypes.EntityType<?> type : EntityTypes.ALL) init(type, parts);
    ClusterMeters.register(system, EntityTypes.keys());
  }

  private <C> void init(EntityTypes.EntityType<C> type, EntityTypes.Parts parts) {
    Entity<C, ShardingEnvelope<C>> entity =
        Entity.of(
            type.key(),
            ctx ->
                type.factory()
                    .create(
                        ctx.getEntityId(),
                        parts,
                        new EntityTypes.Home<>() {
                          @Override
                          public RecipientRef<C> address(ActorRef<C> self) {
                            return sharding.entityRefFor(type.key(), ctx.getEntityId());
                          }

                          @Override
                          public void passivate(ActorRef<C> self) {
                            ctx.getShard().tell(new ClusterSharding.Passivate<>(self));
                          }
                        }));
    sharding.init(type.stopMessage().map(entity::withStopMessage).orElse(entity));
  }

  @Override
  public RecipientRef<WatchEntity.Command> watch(String accountId, String watchId) {
    return ref(EntityTypes.WATCH, WatchEntity.entityId(accountId, watchId));
  }

  @Override
  public RecipientRef<AccountEntity.Command> account(String accountId) {
    return ref(EntityTypes.ACCOUNT, accountId);
  }

  @Override
  public RecipientRef<RunAllEntity.Command> runAll(String accountId) {
    return ref(EntityTypes.RUN_ALL, accountId);
  }

  @Override
  public RecipientRef<BacktestEntity.Command> backtests(String accountId) {
    return ref(EntityTypes.BACKTEST, accountId);
  }

  @Override
  public RecipientRef<EmailEntity.Command> email(String entityId) {
    return ref(EntityTypes.EMAIL, entityId);
  }

  @Override
  public RecipientRef<IdentityLinkEntity.Command> identityLink(String linkId) {
    return ref(EntityTypes.IDENTITY_LINK, linkId);
  }

  @Override
  public RecipientRef<KeyPoolEntity.Command> keyPool(String pool) {
    return ref(EntityTypes.KEY_POOL, pool);
  }

  @Override
  public RecipientRef<AuditLogEntity.Command> auditLog() {
    return ref(EntityTypes.AUDIT_LOG, AuditLogEntity.ID);
  }

  @Override
  public RecipientRef<AdminTurnsEntity.Command> adminTurns() {
    return ref(EntityTypes.ADMIN_TURNS, AdminTurnsEntity.ID);
  }

  @Override
  public RecipientRef<MailBudgetEntity.Command> mailBudget() {
    return ref(EntityTypes.MAIL_BUDGET, MailBudgetEntity.ID);
  }

  @Override
  public RecipientRef<ModelConfigEntity.Command> modelConfig() {
    return ref(EntityTypes.MODEL_CONFIG, ModelConfigEntity.ID);
  }

  @Override
  public RecipientRef<TrustRulesEntity.Command> trustRules(String accountId) {
    return ref(EntityTypes.TRUST_RULES, accountId);
  }

  @Override
  public RecipientRef<QuotaEntity.Command> quota(String accountId) {
    return ref(EntityTypes.QUOTA, accountId);
  }

  @Override
  public RecipientRef<UsageEntity.Command> usage(String accountId) {
    return ref(EntityTypes.USAGE, accountId);
  }

  @Override
  public RecipientRef<DevicesEntity.Command> devices(String accountId) {
    return ref(EntityTypes.DEVICES, accountId);
  }

  @Override
  public RecipientRef<VapidKeyEntity.Command> vapidKey() {
    return ref(EntityTypes.VAPID_KEY, VapidKeyEntity.ID);
  }

  @Override
  public RecipientRef<TelegramChatsEntity.Command> telegramChats() {
    return ref(EntityTypes.TELEGRAM_CHATS, TelegramChatsEntity.ID);
  }

  @Override
  public RecipientRef<ChannelAddressesEntity.Command> channelAddresses(String accountId) {
    return ref(EntityTypes.CHANNEL_ADDRESSES, accountId);
  }

  @Override
  public RecipientRef<WebhookSecretEntity.Command> webhookSecret(String accountId) {
    return ref(EntityTypes.WEBHOOK_SECRET, accountId);
  }

  @Override
  public RecipientRef<FeedbackEntity.Command> feedback(String accountId, String watchId) {
    return ref(EntityTypes.FEEDBACK, FeedbackEntity.entityId(accountId, watchId));
  }

  private <C> RecipientRef<C> ref(EntityTypes.EntityType<C> type, String id) {
    return sharding.entityRefFor(type.key(), EntityIds.checked(id));
  }
}
