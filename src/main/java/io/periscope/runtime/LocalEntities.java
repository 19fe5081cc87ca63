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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Entities as plain actors of one process, for the command line when no service runs: the process
 * holds the data-directory lock, so it is the only writer of every entity it starts.
 */
public final class LocalEntities implements Entities {
  private final ActorSystem<?> system;
  private final Map<String, ActorRef<?>> started = new ConcurrentHashMap<>();
  private volatile RunPipeline pipeline;
  private volatile Clock clock;
  private volatile RunAllWatches runAll;

  public LocalEntities(ActorSystem<?> system) {
    this.system = system;
  }

  /** The entities without a run (all but watches and owners) start on their first message. */
  @Override
  public void start(RunPipeline pipeline, RunAllWatches runAll, Clock clock) {
    this.pipeline = pipeline;
    this.clock = clock;
    this.runAll = runAll;
  }

  @Override
  public RecipientRef<WatchEntity.Command> watch(String owner, String watchId) {
    RunPipeline runs = pipeline;
    if (runs == null) throw new IllegalStateException("watch entities are not started");
    return spawn(
        WatchEntity.TYPE_KEY.name(),
        WatchEntity.entityId(owner, watchId),
        id -> WatchEntity.create(id, runs, clock));
  }

  @Override
  public RecipientRef<AccountEntity.Command> account(String accountId) {
    // Nothing passivates a local actor: the entity is its own keep-alive address.
    return spawn(
        AccountEntity.TYPE_KEY.name(),
        accountId,
        id -> {
          RunAllWatches runs = runAll;
          if (runs == null) throw new IllegalStateException("account entities are not started");
          return Behaviors.<AccountEntity.Command>setup(
              ctx -> AccountEntity.create(id, runs, this, ctx.getSelf()));
        });
  }

  @Override
  public RecipientRef<EmailEntity.Command> email(String entityId) {
    return spawn(EmailEntity.TYPE_KEY.name(), entityId, EmailEntity::create);
  }

  @Override
  public RecipientRef<IdentityLinkEntity.Command> identityLink(String linkId) {
    return spawn(IdentityLinkEntity.TYPE_KEY.name(), linkId, IdentityLinkEntity::create);
  }

  @Override
  public RecipientRef<KeyPoolEntity.Command> keyPool(String pool) {
    return spawn(KeyPoolEntity.TYPE_KEY.name(), pool, KeyPoolEntity::create);
  }

  @Override
  public RecipientRef<AuditLogEntity.Command> auditLog() {
    return spawn(AuditLogEntity.TYPE_KEY.name(), AuditLogEntity.ID, AuditLogEntity::create);
  }

  @Override
  public RecipientRef<AdminTurnsEntity.Command> adminTurns() {
    return spawn(AdminTurnsEntity.TYPE_KEY.name(), AdminTurnsEntity.ID, AdminTurnsEntity::create);
  }

  @Override
  public RecipientRef<MailBudgetEntity.Command> mailBudget() {
    return spawn(MailBudgetEntity.TYPE_KEY.name(), MailBudgetEntity.ID, MailBudgetEntity::create);
  }

  @Override
  public RecipientRef<ModelConfigEntity.Command> modelConfig() {
    return spawn(
        ModelConfigEntity.TYPE_KEY.name(), ModelConfigEntity.ID, ModelConfigEntity::create);
  }

  @Override
  public RecipientRef<TrustRulesEntity.Command> trustRules(String owner) {
    return spawn(TrustRulesEntity.TYPE_KEY.name(), owner, TrustRulesEntity::create);
  }

  @Override
  public RecipientRef<QuotaEntity.Command> quota(String accountId) {
    return spawn(QuotaEntity.TYPE_KEY.name(), accountId, QuotaEntity::create);
  }

  @Override
  public RecipientRef<UsageEntity.Command> usage(String accountId) {
    return spawn(UsageEntity.TYPE_KEY.name(), accountId, UsageEntity::create);
  }

  @Override
  public RecipientRef<FeedbackEntity.Command> feedback(String owner, String watchId) {
    return spawn(
        FeedbackEntity.TYPE_KEY.name(),
        FeedbackEntity.entityId(owner, watchId),
        FeedbackEntity::create);
  }

  @Override
  public RecipientRef<DevicesEntity.Command> devices(String owner) {
    return spawn(DevicesEntity.TYPE_KEY.name(), owner, DevicesEntity::create);
  }

  @Override
  public RecipientRef<VapidKeyEntity.Command> vapidKey() {
    return spawn(VapidKeyEntity.TYPE_KEY.name(), VapidKeyEntity.ID, VapidKeyEntity::create);
  }

  @Override
  public RecipientRef<TelegramChatsEntity.Command> telegramChats() {
    return spawn(
        TelegramChatsEntity.TYPE_KEY.name(), TelegramChatsEntity.ID, TelegramChatsEntity::create);
  }

  @Override
  public RecipientRef<ChannelAddressesEntity.Command> channelAddresses(String owner) {
    return spawn(ChannelAddressesEntity.TYPE_KEY.name(), owner, ChannelAddressesEntity::create);
  }

  @Override
  public RecipientRef<WebhookSecretEntity.Command> webhookSecret(String owner) {
    return spawn(WebhookSecretEntity.TYPE_KEY.name(), owner, WebhookSecretEntity::create);
  }

  @SuppressWarnings("unchecked")
  private <T> ActorRef<T> spawn(String type, String id, Function<String, Behavior<T>> behavior) {
    EntityIds.checked(id);
    String name = type + "-" + URLEncoder.encode(id, StandardCharsets.UTF_8);
    return (ActorRef<T>)
        started.computeIfAbsent(
            name, n -> system.systemActorOf(behavior.apply(id), n, Props.empty()));
  }
}
