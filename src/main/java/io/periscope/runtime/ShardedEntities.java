package io.periscope.runtime;

import io.periscope.account.AccountEntity;
import io.periscope.auth.AdminTurnsEntity;
import io.periscope.auth.AuditLogEntity;
import io.periscope.auth.EmailEntity;
import io.periscope.auth.IdentityLinkEntity;
import io.periscope.auth.MailBudgetEntity;
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
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
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
  public void start(RunPipeline pipeline, RunAllWatches runAll, Clock clock) {
    sharding.init(
        Entity.of(
            AccountEntity.TYPE_KEY,
            ctx ->
                AccountEntity.create(ctx.getEntityId(), runAll, this, account(ctx.getEntityId()))));
    sharding.init(Entity.of(EmailEntity.TYPE_KEY, ctx -> EmailEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(MailBudgetEntity.TYPE_KEY, ctx -> MailBudgetEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(AuditLogEntity.TYPE_KEY, ctx -> AuditLogEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(AdminTurnsEntity.TYPE_KEY, ctx -> AdminTurnsEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(
            IdentityLinkEntity.TYPE_KEY, ctx -> IdentityLinkEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(KeyPoolEntity.TYPE_KEY, ctx -> KeyPoolEntity.create(ctx.getEntityId()))
            .withStopMessage(new KeyPoolEntity.Stop()));
    sharding.init(
        Entity.of(ModelConfigEntity.TYPE_KEY, ctx -> ModelConfigEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(TrustRulesEntity.TYPE_KEY, ctx -> TrustRulesEntity.create(ctx.getEntityId())));
    sharding.init(Entity.of(QuotaEntity.TYPE_KEY, ctx -> QuotaEntity.create(ctx.getEntityId())));
    sharding.init(Entity.of(UsageEntity.TYPE_KEY, ctx -> UsageEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(FeedbackEntity.TYPE_KEY, ctx -> FeedbackEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(DevicesEntity.TYPE_KEY, ctx -> DevicesEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(VapidKeyEntity.TYPE_KEY, ctx -> VapidKeyEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(
            TelegramChatsEntity.TYPE_KEY, ctx -> TelegramChatsEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(
            ChannelAddressesEntity.TYPE_KEY,
            ctx -> ChannelAddressesEntity.create(ctx.getEntityId())));
    sharding.init(
        Entity.of(
            WebhookSecretEntity.TYPE_KEY, ctx -> WebhookSecretEntity.create(ctx.getEntityId())));
    // The stop message lets a watch finish its run in flight before it passivates or moves to
    // another node.
    sharding.init(
        Entity.of(
                WatchEntity.TYPE_KEY,
                ctx ->
                    WatchEntity.create(
                        ctx.getEntityId(),
                        pipeline,
                        clock,
                        self -> ctx.getShard().tell(new ClusterSharding.Passivate<>(self))))
            .withStopMessage(new WatchEntity.Stop()));
    ClusterMeters.register(
        system,
        List.of(
            AccountEntity.TYPE_KEY,
            EmailEntity.TYPE_KEY,
            IdentityLinkEntity.TYPE_KEY,
            KeyPoolEntity.TYPE_KEY,
            ModelConfigEntity.TYPE_KEY,
            TrustRulesEntity.TYPE_KEY,
            FeedbackEntity.TYPE_KEY,
            DevicesEntity.TYPE_KEY,
            VapidKeyEntity.TYPE_KEY,
            TelegramChatsEntity.TYPE_KEY,
            ChannelAddressesEntity.TYPE_KEY,
            WebhookSecretEntity.TYPE_KEY,
            WatchEntity.TYPE_KEY));
  }

  @Override
  public RecipientRef<WatchEntity.Command> watch(String owner, String watchId) {
    return sharding.entityRefFor(
        WatchEntity.TYPE_KEY, EntityIds.checked(WatchEntity.entityId(owner, watchId)));
  }

  @Override
  public RecipientRef<AccountEntity.Command> account(String accountId) {
    return sharding.entityRefFor(AccountEntity.TYPE_KEY, EntityIds.checked(accountId));
  }

  @Override
  public RecipientRef<EmailEntity.Command> email(String entityId) {
    return sharding.entityRefFor(EmailEntity.TYPE_KEY, EntityIds.checked(entityId));
  }

  @Override
  public RecipientRef<IdentityLinkEntity.Command> identityLink(String linkId) {
    return sharding.entityRefFor(IdentityLinkEntity.TYPE_KEY, EntityIds.checked(linkId));
  }

  @Override
  public RecipientRef<KeyPoolEntity.Command> keyPool(String pool) {
    return sharding.entityRefFor(KeyPoolEntity.TYPE_KEY, EntityIds.checked(pool));
  }

  @Override
  public RecipientRef<AuditLogEntity.Command> auditLog() {
    return sharding.entityRefFor(AuditLogEntity.TYPE_KEY, AuditLogEntity.ID);
  }

  @Override
  public RecipientRef<AdminTurnsEntity.Command> adminTurns() {
    return sharding.entityRefFor(AdminTurnsEntity.TYPE_KEY, AdminTurnsEntity.ID);
  }

  @Override
  public RecipientRef<MailBudgetEntity.Command> mailBudget() {
    return sharding.entityRefFor(MailBudgetEntity.TYPE_KEY, MailBudgetEntity.ID);
  }

  @Override
  public RecipientRef<ModelConfigEntity.Command> modelConfig() {
    return sharding.entityRefFor(ModelConfigEntity.TYPE_KEY, ModelConfigEntity.ID);
  }

  @Override
  public RecipientRef<TrustRulesEntity.Command> trustRules(String owner) {
    return sharding.entityRefFor(TrustRulesEntity.TYPE_KEY, EntityIds.checked(owner));
  }

  @Override
  public RecipientRef<QuotaEntity.Command> quota(String accountId) {
    return sharding.entityRefFor(QuotaEntity.TYPE_KEY, EntityIds.checked(accountId));
  }

  @Override
  public RecipientRef<UsageEntity.Command> usage(String accountId) {
    return sharding.entityRefFor(UsageEntity.TYPE_KEY, EntityIds.checked(accountId));
  }

  @Override
  public RecipientRef<DevicesEntity.Command> devices(String owner) {
    return sharding.entityRefFor(DevicesEntity.TYPE_KEY, EntityIds.checked(owner));
  }

  @Override
  public RecipientRef<VapidKeyEntity.Command> vapidKey() {
    return sharding.entityRefFor(VapidKeyEntity.TYPE_KEY, VapidKeyEntity.ID);
  }

  @Override
  public RecipientRef<TelegramChatsEntity.Command> telegramChats() {
    return sharding.entityRefFor(TelegramChatsEntity.TYPE_KEY, TelegramChatsEntity.ID);
  }

  @Override
  public RecipientRef<ChannelAddressesEntity.Command> channelAddresses(String owner) {
    return sharding.entityRefFor(ChannelAddressesEntity.TYPE_KEY, EntityIds.checked(owner));
  }

  @Override
  public RecipientRef<WebhookSecretEntity.Command> webhookSecret(String owner) {
    return sharding.entityRefFor(WebhookSecretEntity.TYPE_KEY, EntityIds.checked(owner));
  }

  @Override
  public RecipientRef<FeedbackEntity.Command> feedback(String owner, String watchId) {
    return sharding.entityRefFor(
        FeedbackEntity.TYPE_KEY, EntityIds.checked(FeedbackEntity.entityId(owner, watchId)));
  }
}
