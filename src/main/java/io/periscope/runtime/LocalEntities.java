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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * Entities as plain actors of one process, for the command line when no service runs: the process
 * holds the data-directory lock, so it is the only writer of every entity it starts.
 */
public final class LocalEntities implements Entities {
  private final ActorSystem<?> system;
  private final Map<String, ActorRef<?>> started = new ConcurrentHashMap<>();
  private volatile EntityTypes.Parts parts = EntityTypes.Parts.notStarted(this);

  public LocalEntities(ActorSystem<?> system) {
    this.system = system;
  }

  /** The entities without a run (all but watches and owners) start on their first message. */
  @Override
  public void start(
      RunPipeline pipeline, RunAllWatches runAll, BacktestEntity.Runner backtests, Clock clock) {
    this.parts = new EntityTypes.Parts(pipeline, runAll, backtests, clock, this);
  }

  @Override
  public RecipientRef<WatchEntity.Command> watch(String accountId, String watchId) {
    return spawn(EntityTypes.WATCH, WatchEntity.entityId(accountId, watchId));
  }

  @Override
  public RecipientRef<AccountEntity.Command> account(String accountId) {
    return spawn(EntityTypes.ACCOUNT, accountId);
  }

  @Override
  public RecipientRef<RunAllEntity.Command> runAll(String accountId) {
    return spawn(EntityTypes.RUN_ALL, accountId);
  }

  @Override
  public RecipientRef<BacktestEntity.Command> backtests(String accountId) {
    return spawn(EntityTypes.BACKTEST, accountId);
  }

  @Override
  public RecipientRef<EmailEntity.Command> email(String entityId) {
    return spawn(EntityTypes.EMAIL, entityId);
  }

  @Override
  public RecipientRef<IdentityLinkEntity.Command> identityLink(String linkId) {
    return spawn(EntityTypes.IDENTITY_LINK, linkId);
  }

  @Override
  public RecipientRef<KeyPoolEntity.Command> keyPool(String pool) {
    return spawn(EntityTypes.KEY_POOL, pool);
  }

  @Override
  public RecipientRef<AuditLogEntity.Command> auditLog() {
    return spawn(EntityTypes.AUDIT_LOG, AuditLogEntity.ID);
  }

  @Override
  public RecipientRef<AdminTurnsEntity.Command> adminTurns() {
    return spawn(EntityTypes.ADMIN_TURNS, AdminTurnsEntity.ID);
  }

  @Override
  public RecipientRef<MailBudgetEntity.Command> mailBudget() {
    return spawn(EntityTypes.MAIL_BUDGET, MailBudgetEntity.ID);
  }

  @Override
  public RecipientRef<ModelConfigEntity.Command> modelConfig() {
    return spawn(EntityTypes.MODEL_CONFIG, ModelConfigEntity.ID);
  }

  @Override
  public RecipientRef<TrustRulesEntity.Command> trustRules(String accountId) {
    return spawn(EntityTypes.TRUST_RULES, accountId);
  }

  @Override
  public RecipientRef<QuotaEntity.Command> quota(String accountId) {
    return spawn(EntityTypes.QUOTA, accountId);
  }

  @Override
  public RecipientRef<UsageEntity.Command> usage(String accountId) {
    return spawn(EntityTypes.USAGE, accountId);
  }

  @Override
  public RecipientRef<FeedbackEntity.Command> feedback(String accountId, String watchId) {
    return spawn(EntityTypes.FEEDBACK, FeedbackEntity.entityId(accountId, watchId));
  }

  @Override
  public RecipientRef<DevicesEntity.Command> devices(String accountId) {
    return spawn(EntityTypes.DEVICES, accountId);
  }

  @Override
  public RecipientRef<VapidKeyEntity.Command> vapidKey() {
    return spawn(EntityTypes.VAPID_KEY, VapidKeyEntity.ID);
  }

  @Override
  public RecipientRef<TelegramChatsEntity.Command> telegramChats() {
    return spawn(EntityTypes.TELEGRAM_CHATS, TelegramChatsEntity.ID);
  }

  @Override
  public RecipientRef<ChannelAddressesEntity.Command> channelAddresses(String accountId) {
    return spawn(EntityTypes.CHANNEL_ADDRESSES, accountId);
  }

  @Override
  public RecipientRef<WebhookSecretEntity.Command> webhookSecret(String accountId) {
    return spawn(EntityTypes.WEBHOOK_SECRET, accountId);
  }

  /** Nothing passivates a local actor: the actor is its own address, and stays. */
  private static final class Resident<C> implements EntityTypes.Home<C> {
    @Override
    public RecipientRef<C> address(ActorRef<C> self) {
      return self;
    }

    @Override
    public void passivate(ActorRef<C> self) {}
  }

  @SuppressWarnings("unchecked")
  <C> ActorRef<C> spawn(EntityTypes.EntityType<C> type, String id) {
    EntityIds.checked(id);
    String name = type.key().name() + "-" + URLEncoder.encode(id, StandardCharsets.UTF_8);
    return (ActorRef<C>)
        started.computeIfAbsent(
            name,
            n ->
                system.systemActorOf(
                    type.factory().create(id, parts, new Resident<>()), n, Props.empty()));
  }
}
