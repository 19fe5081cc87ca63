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
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * How the service's wiring ({@code Periscope}, the command line, the route layer) addresses
 * entities: through cluster sharding when serving, or as plain local actors when the command line
 * works on a stopped service (then it is the journal's only writer). Domain services get only the
 * one-entity lookups they ask, never this whole registry. An id no entity can have ({@code
 * entity.EntityIds}) is refused with a 400 here.
 */
public interface Entities
    extends WatchEntity.Refs,
        AccountEntity.Refs,
        RunAllEntity.Refs,
        BacktestEntity.Refs,
        AuditLogEntity.Refs,
        AdminTurnsEntity.Refs,
        EmailEntity.Refs,
        MailBudgetEntity.Refs,
        IdentityLinkEntity.Refs,
        KeyPoolEntity.Refs,
        ModelConfigEntity.Refs,
        TrustRulesEntity.Refs,
        FeedbackEntity.Refs,
        DevicesEntity.Refs,
        VapidKeyEntity.Refs,
        TelegramChatsEntity.Refs,
        ChannelAddressesEntity.Refs,
        WebhookSecretEntity.Refs,
        QuotaEntity.Refs,
        UsageEntity.Refs {

  /**
   * Registers every entity type, in one step, once the service's parts exist: a watch runs through
   * {@code pipeline}, an owner's run-all is {@code runAll}, a backtest job runs through {@code
   * backtests}. Until then the references only address: the pipeline itself reaches key pools and
   * trust rules through them, and run-all the watches.
   */
  void start(
      RunPipeline pipeline, RunAllWatches runAll, BacktestEntity.Runner backtests, Clock clock);

  /**
   * The entity {@code id} of {@code type}, addressed the way this runtime runs entities: the one
   * place a runtime differs, so a new entity type needs its {@link EntityTypes} entry and its
   * lookup below, nothing else here.
   */
  <C> RecipientRef<C> ref(EntityTypes.EntityType<C> type, String id);

  @Override
  default RecipientRef<WatchEntity.Command> watch(String accountId, String watchId) {
    return ref(EntityTypes.WATCH, WatchEntity.entityId(accountId, watchId));
  }

  @Override
  default RecipientRef<AccountEntity.Command> account(String accountId) {
    return ref(EntityTypes.ACCOUNT, accountId);
  }

  @Override
  default RecipientRef<RunAllEntity.Command> runAll(String accountId) {
    return ref(EntityTypes.RUN_ALL, accountId);
  }

  @Override
  default RecipientRef<BacktestEntity.Command> backtests(String accountId) {
    return ref(EntityTypes.BACKTEST, accountId);
  }

  @Override
  default RecipientRef<EmailEntity.Command> email(String entityId) {
    return ref(EntityTypes.EMAIL, entityId);
  }

  @Override
  default RecipientRef<IdentityLinkEntity.Command> identityLink(String linkId) {
    return ref(EntityTypes.IDENTITY_LINK, linkId);
  }

  @Override
  default RecipientRef<KeyPoolEntity.Command> keyPool(String pool) {
    return ref(EntityTypes.KEY_POOL, pool);
  }

  @Override
  default RecipientRef<AuditLogEntity.Command> auditLog() {
    return ref(EntityTypes.AUDIT_LOG, AuditLogEntity.ID);
  }

  @Override
  default RecipientRef<AdminTurnsEntity.Command> adminTurns() {
    return ref(EntityTypes.ADMIN_TURNS, AdminTurnsEntity.ID);
  }

  @Override
  default RecipientRef<MailBudgetEntity.Command> mailBudget() {
    return ref(EntityTypes.MAIL_BUDGET, MailBudgetEntity.ID);
  }

  @Override
  default RecipientRef<ModelConfigEntity.Command> modelConfig() {
    return ref(EntityTypes.MODEL_CONFIG, ModelConfigEntity.ID);
  }

  @Override
  default RecipientRef<TrustRulesEntity.Command> trustRules(String accountId) {
    return ref(EntityTypes.TRUST_RULES, accountId);
  }

  @Override
  default RecipientRef<QuotaEntity.Command> quota(String accountId) {
    return ref(EntityTypes.QUOTA, accountId);
  }

  @Override
  default RecipientRef<UsageEntity.Command> usage(String accountId) {
    return ref(EntityTypes.USAGE, accountId);
  }

  @Override
  default RecipientRef<DevicesEntity.Command> devices(String accountId) {
    return ref(EntityTypes.DEVICES, accountId);
  }

  @Override
  default RecipientRef<VapidKeyEntity.Command> vapidKey() {
    return ref(EntityTypes.VAPID_KEY, VapidKeyEntity.ID);
  }

  @Override
  default RecipientRef<TelegramChatsEntity.Command> telegramChats() {
    return ref(EntityTypes.TELEGRAM_CHATS, TelegramChatsEntity.ID);
  }

  @Override
  default RecipientRef<ChannelAddressesEntity.Command> channelAddresses(String accountId) {
    return ref(EntityTypes.CHANNEL_ADDRESSES, accountId);
  }

  @Override
  default RecipientRef<WebhookSecretEntity.Command> webhookSecret(String accountId) {
    return ref(EntityTypes.WEBHOOK_SECRET, accountId);
  }

  @Override
  default RecipientRef<FeedbackEntity.Command> feedback(String accountId, String watchId) {
    return ref(EntityTypes.FEEDBACK, FeedbackEntity.entityId(accountId, watchId));
  }
}
