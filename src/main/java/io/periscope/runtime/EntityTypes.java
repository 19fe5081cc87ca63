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
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/**
 * Every entity type of the service, each declared once: its type key, how an entity of it is built,
 * and the message that stops it gracefully. The sharded and the local runtime start entities from
 * this list, and the cluster meters count the live entities of each type in it; a new entity type
 * is added here and nowhere else in the runtime.
 */
final class EntityTypes {
  private EntityTypes() {}

  /** One entity type: how a runtime starts its entities. */
  record EntityType<C>(EntityTypeKey<C> key, Factory<C> factory, Optional<C> stopMessage) {}

  /** Builds the entity of {@code id}, given the service's parts and where the runtime holds it. */
  @FunctionalInterface
  interface Factory<C> {
    Behavior<C> create(String id, Parts parts, Home<C> home);
  }

  /** How a runtime holds one entity. */
  interface Home<C> {
    /** The entity's address as others reach it, given the actor it runs as. */
    RecipientRef<C> address(ActorRef<C> self);

    /** Takes the entity out of memory; where nothing would start it again, it stays. */
    void passivate(ActorRef<C> self);
  }

  /**
   * What the entities with a run are built with, known once the service's parts exist ({@link
   * Entities#start}); asked before that, each part is refused.
   */
  record Parts(
      RunPipeline pipeline,
      RunAllWatches runAll,
      BacktestEntity.Runner backtests,
      Clock clock,
      Entities entities) {
    static Parts notStarted(Entities entities) {
      return new Parts(null, null, null, null, entities);
    }

    @Override
    public RunPipeline pipeline() {
      return started(pipeline);
    }

    @Override
    public RunAllWatches runAll() {
      return started(runAll);
    }

    @Override
    public BacktestEntity.Runner backtests() {
      return started(backtests);
    }

    @Override
    public Clock clock() {
      return started(clock);
    }

    private static <T> T started(T part) {
      if (part == null) throw new IllegalStateException("entities with a run are not started");
      return part;
    }
  }

  /** An entity built from its id alone, stopped by the runtime's default. */
  private static <C> EntityType<C> simple(
      EntityTypeKey<C> key, Function<String, Behavior<C>> create) {
    return new EntityType<>(key, (id, parts, home) -> create.apply(id), Optional.empty());
  }

  static final EntityType<AccountEntity.Command> ACCOUNT =
      new EntityType<>(
          AccountEntity.TYPE_KEY,
          (id, parts, home) -> AccountEntity.create(id, parts.entities()),
          Optional.empty());

  static final EntityType<RunAllEntity.Command> RUN_ALL =
      new EntityType<>(
          RunAllEntity.TYPE_KEY,
          (id, parts, home) -> {
            RunAllWatches runAll = parts.runAll();
            return Behaviors.setup(
                ctx -> RunAllEntity.create(id, runAll, home.address(ctx.getSelf())));
          },
          Optional.empty());

  static final EntityType<BacktestEntity.Command> BACKTEST =
      new EntityType<>(
          BacktestEntity.TYPE_KEY,
          (id, parts, home) -> {
            BacktestEntity.Runner runner = parts.backtests();
            return Behaviors.setup(
                ctx -> BacktestEntity.create(id, runner, home.address(ctx.getSelf())));
          },
          Optional.empty());

  // The stop message lets a watch finish its run in flight before it passivates or moves to
  // another node.
  static final EntityType<WatchEntity.Command> WATCH =
      new EntityType<>(
          WatchEntity.TYPE_KEY,
          (id, parts, home) ->
              WatchEntity.create(id, parts.pipeline(), parts.clock(), home::passivate),
          Optional.of(new WatchEntity.Stop()));

  static final EntityType<KeyPoolEntity.Command> KEY_POOL =
      new EntityType<>(
          KeyPoolEntity.TYPE_KEY,
          (id, parts, home) -> KeyPoolEntity.create(id),
          Optional.of(new KeyPoolEntity.Stop()));

  static final EntityType<EmailEntity.Command> EMAIL =
      simple(EmailEntity.TYPE_KEY, EmailEntity::create);
  static final EntityType<MailBudgetEntity.Command> MAIL_BUDGET =
      simple(MailBudgetEntity.TYPE_KEY, MailBudgetEntity::create);
  static final EntityType<AuditLogEntity.Command> AUDIT_LOG =
      simple(AuditLogEntity.TYPE_KEY, AuditLogEntity::create);
  static final EntityType<AdminTurnsEntity.Command> ADMIN_TURNS =
      simple(AdminTurnsEntity.TYPE_KEY, AdminTurnsEntity::create);
  static final EntityType<IdentityLinkEntity.Command> IDENTITY_LINK =
      simple(IdentityLinkEntity.TYPE_KEY, IdentityLinkEntity::create);
  static final EntityType<ModelConfigEntity.Command> MODEL_CONFIG =
      simple(ModelConfigEntity.TYPE_KEY, ModelConfigEntity::create);
  static final EntityType<TrustRulesEntity.Command> TRUST_RULES =
      simple(TrustRulesEntity.TYPE_KEY, TrustRulesEntity::create);
  static final EntityType<QuotaEntity.Command> QUOTA =
      simple(QuotaEntity.TYPE_KEY, QuotaEntity::create);
  static final EntityType<UsageEntity.Command> USAGE =
      simple(UsageEntity.TYPE_KEY, UsageEntity::create);
  static final EntityType<FeedbackEntity.Command> FEEDBACK =
      simple(FeedbackEntity.TYPE_KEY, FeedbackEntity::create);
  static final EntityType<DevicesEntity.Command> DEVICES =
      simple(DevicesEntity.TYPE_KEY, DevicesEntity::create);
  static final EntityType<VapidKeyEntity.Command> VAPID_KEY =
      simple(VapidKeyEntity.TYPE_KEY, VapidKeyEntity::create);
  static final EntityType<TelegramChatsEntity.Command> TELEGRAM_CHATS =
      simple(TelegramChatsEntity.TYPE_KEY, TelegramChatsEntity::create);
  static final EntityType<ChannelAddressesEntity.Command> CHANNEL_ADDRESSES =
      simple(ChannelAddressesEntity.TYPE_KEY, ChannelAddressesEntity::create);
  static final EntityType<WebhookSecretEntity.Command> WEBHOOK_SECRET =
      simple(WebhookSecretEntity.TYPE_KEY, WebhookSecretEntity::create);

  /** Every type: what the runtimes start and the meters count. */
  static final List<EntityType<?>> ALL =
      List.of(
          ACCOUNT,
          RUN_ALL,
          BACKTEST,
          WATCH,
          KEY_POOL,
          EMAIL,
          MAIL_BUDGET,
          AUDIT_LOG,
          ADMIN_TURNS,
          IDENTITY_LINK,
          MODEL_CONFIG,
          TRUST_RULES,
          QUOTA,
          USAGE,
          FEEDBACK,
          DEVICES,
          VAPID_KEY,
          TELEGRAM_CHATS,
          CHANNEL_ADDRESSES,
          WEBHOOK_SECRET);

  static List<EntityTypeKey<?>> keys() {
    return ALL.stream().<EntityTypeKey<?>>map(EntityType::key).toList();
  }
}
