package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.account.AccountEntity;
import io.periscope.auth.EmailEntity;
import io.periscope.auth.IdentityLinkEntity;
import io.periscope.channels.ChannelAddressesEntity;
import io.periscope.channels.TelegramChatsEntity;
import io.periscope.devices.DeviceValidator;
import io.periscope.devices.DevicesEntity;
import io.periscope.devices.VapidKeyEntity;
import io.periscope.feedback.Feedback;
import io.periscope.feedback.FeedbackEntity;
import io.periscope.llm.ModelChoice;
import io.periscope.llm.ModelConfigEntity;
import io.periscope.llm.ModelConfiguration;
import io.periscope.persistence.JournalSchema;
import io.periscope.testing.TestJournals;
import io.periscope.trust.TrustRule;
import io.periscope.trust.TrustRulesEntity;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.pattern.StatusReply;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Every long-lived entity type snapshots its state on the real journal (a snapshot every {@link
 * Snapshots#EVERY} events), recovers from it, and keeps every event: none is deleted on a snapshot.
 */
public class SnapshotsTest {
  static final int EVENTS = Snapshots.EVERY + 5;
  static final Instant T0 = Instant.parse("2026-01-05T10:00:00Z");
  static ActorTestKit kit;
  static Asks asks;
  static String url;

  @BeforeClass
  public static void start() {
    kit = ActorTestKit.create(TestJournals.h2());
    JournalSchema.create(kit.system());
    asks = new Asks(kit.system(), Duration.ofSeconds(10));
    url =
        kit.system()
            .settings()
            .config()
            .getString("pekko-persistence-jdbc.shared-databases.periscope.db.url");
  }

  @AfterClass
  public static void stop() {
    kit.shutdownTestKit();
  }

  @Test
  public void ownersSnapshot() throws Exception {
    AccountEntity.WatchIds ids =
        recovered(
            "Owner",
            "snap-owner",
            id -> AccountEntity.create(id, (owner, watch) -> kit.createTestProbe().ref().narrow()),
            i -> r -> new AccountEntity.AddWatch("w" + i, any(r)),
            AccountEntity.ListWatches::new);
    assertEquals(EVENTS, ids.ids().size());
  }

  @Test
  public void emailAddressesSnapshot() throws Exception {
    String held =
        recovered(
            "Email",
            "snap-email",
            EmailEntity::create,
            i ->
                i % 2 == 0
                    ? r -> new EmailEntity.Claim("a" + i, any(r))
                    : r -> new EmailEntity.Release("a" + (i - 1), any(r)),
            EmailEntity.Lookup::new);
    assertEquals("a" + (EVENTS - 1), held);
  }

  @Test
  public void trustRulesSnapshot() throws Exception {
    TrustRulesEntity.Rules rules =
        recovered(
            "TrustRules",
            "snap-trust",
            TrustRulesEntity::create,
            i ->
                r ->
                    new TrustRulesEntity.Put(
                        new TrustRule(
                            "d" + (i % 7) + ".org", i % 2 == 0 ? "official" : "community"),
                        any(r)),
            TrustRulesEntity.GetRules::new);
    assertEquals(7, rules.rules().size());
  }

  @Test
  public void feedbackSnapshots() throws Exception {
    FeedbackEntity.FeedbackList list =
        recovered(
            "Feedback",
            "snap-feedback",
            FeedbackEntity::create,
            i ->
                r ->
                    new FeedbackEntity.Give(
                        new Feedback(
                            "run-" + (i % 3),
                            "useful",
                            "note " + i,
                            T0.plusSeconds(i),
                            new Feedback.RunSummary(T0, "no-match", "nothing", 0.1)),
                        any(r)),
            r -> new FeedbackEntity.GetFeedback(10, r));
    assertEquals(3, list.feedback().size());
    assertEquals("note " + (EVENTS - 1), list.feedback().get(0).note());
  }

  @Test
  public void devicesSnapshot() throws Exception {
    DevicesEntity.Devices devices =
        recovered(
            "Devices",
            "snap-devices",
            DevicesEntity::create,
            i ->
                r ->
                    new DevicesEntity.Register(
                        new DeviceValidator.Subscription(
                            "phone " + i, "https://push.example/" + (i % 2), "p256dh", "auth"),
                        T0.plusSeconds(i),
                        any(r)),
            DevicesEntity.GetDevices::new);
    assertEquals(2, devices.devices().size());
  }

  @Test
  public void theModelConfigurationSnapshots() throws Exception {
    ModelConfigEntity.State state =
        recovered(
            "ModelConfig",
            "snap-model",
            ModelConfigEntity::create,
            i ->
                r ->
                    new ModelConfigEntity.Change(
                        ModelConfiguration.both(
                            ModelChoice.withDefaults("openai", "http://m.example/v1", "m" + i)),
                        T0.plusSeconds(i),
                        "root",
                        any(r)),
            ModelConfigEntity.Get::new);
    assertEquals("m" + (EVENTS - 1), state.configuration().verdicts().model());
  }

  @Test
  public void theVapidKeySnapshots() throws Exception {
    VapidKeyEntity.StoredKeys keys =
        recovered(
            "VapidKey",
            "snap-vapid",
            VapidKeyEntity::create,
            i ->
                i == 0
                    ? r ->
                        new VapidKeyEntity.GetOrAdopt(
                            new VapidKeyEntity.StoredKeys("public", "sealed-0"), any(r))
                    : r -> new VapidKeyEntity.Reseal("sealed-" + (i - 1), "sealed-" + i, any(r)),
            VapidKeyEntity.Get::new);
    assertEquals("sealed-" + (EVENTS - 1), keys.privateKeyCiphertext());
  }

  @Test
  public void theOpenedTelegramChatsSnapshot() throws Exception {
    TelegramChatsEntity.Chats chats =
        recovered(
            "TelegramChats",
            "snap-chats",
            TelegramChatsEntity::create,
            i ->
                r ->
                    new TelegramChatsEntity.Allow(
                        new TelegramChatsEntity.AllowedChat(
                            "-" + (100 + i % 4), false, List.of("u" + i), T0, "root"),
                        any(r)),
            TelegramChatsEntity.Get::new);
    assertEquals(4, chats.chats().size());
  }

  @Test
  public void channelAddressesSnapshot() throws Exception {
    ChannelAddressesEntity.Addresses addresses =
        recovered(
            "ChannelAddresses",
            "snap-addresses",
            ChannelAddressesEntity::create,
            i ->
                r ->
                    new ChannelAddressesEntity.Request(
                        new ChannelAddressesEntity.Waiting(
                            "a" + (i % 5) + "@example.org", "hash-" + i, T0.plusSeconds(3600)),
                        T0,
                        ChannelAddressesEntity.Budgets.NONE,
                        any(r)),
            ChannelAddressesEntity.Get::new);
    assertEquals(5, addresses.addresses().size());
  }

  @Test
  public void identityLinksSnapshot() throws Exception {
    IdentityLinkEntity.Pending confirmed =
        recovered(
            "IdentityLink",
            "snap-link",
            IdentityLinkEntity::create,
            i ->
                r ->
                    new IdentityLinkEntity.Propose(
                        new IdentityLinkEntity.Pending(
                            "acct", "keycloak", "hash-" + i, T0, "acct-kc"),
                        any(r)),
            // the last proposal's token is the one that works after recovery
            r -> new IdentityLinkEntity.Confirm("hash-" + (EVENTS - 1), T0.minusSeconds(1), r));
    assertEquals("acct", confirmed.accountId());
  }

  /**
   * Sends {@code EVENTS} commands that each write one event, checks the journal holds a snapshot
   * and every event, and answers {@code read} from a fresh incarnation of the entity.
   */
  static <C, R> R recovered(
      String type,
      String id,
      Function<String, Behavior<C>> behavior,
      Function<Integer, org.apache.pekko.japi.function.Function<ActorRef<StatusReply<Object>>, C>>
          command,
      org.apache.pekko.japi.function.Function<ActorRef<StatusReply<R>>, C> read)
      throws Exception {
    ActorRef<C> first = kit.spawn(behavior.apply(id));
    for (int i = 0; i < EVENTS; i++) {
      var write = command.apply(i);
      await(() -> asks.<C, Object>ask(first, write::apply));
    }
    kit.stop(first);
    String persistenceId = type + "|" + id;
    assertEquals("every event is kept", EVENTS, count("event_journal", persistenceId));
    assertTrue("a snapshot was taken", count("snapshot", persistenceId) >= 1);
    ActorRef<C> again = kit.spawn(behavior.apply(id));
    return await(() -> asks.<C, R>ask(again, read::apply));
  }

  /** A reply address for a command whose answer the test does not read. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static <T> ActorRef<StatusReply<T>> any(ActorRef<StatusReply<Object>> replyTo) {
    return (ActorRef) replyTo;
  }

  static <T> T await(Supplier<java.util.concurrent.CompletionStage<T>> ask) throws Exception {
    return ask.get().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static long count(String table, String persistenceId) throws Exception {
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        PreparedStatement q =
            c.prepareStatement(
                "SELECT COUNT(*) FROM \"" + table + "\" WHERE \"persistence_id\" = ?")) {
      q.setString(1, persistenceId);
      try (ResultSet r = q.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    }
  }
}
