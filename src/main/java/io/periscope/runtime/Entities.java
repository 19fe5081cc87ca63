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
}
