package io.periscope.account;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.auth.Role;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.TestAccounts;
import io.periscope.testing.TestWatches;
import io.periscope.watch.WatchEntity;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The account entity under the persistence testkit; commands, events and state round-trip through
 * the service's Jackson binding (periscope.conf) and must come back equal.
 */
public class AccountEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final Account ALICE =
      Account.made(
          "alice",
          "alice@example.org",
          Role.USER,
          "$2a$10$hash",
          Instant.parse("2026-11-22T12:00:00Z"));

  private EventSourcedBehaviorTestKit<
          AccountEntity.Command, AccountEntity.Event, AccountEntity.State>
      owner;

  @Before
  public void setUp() {
    owner =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            AccountEntity.create("alice", watches()),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  /** The ids of the watches that exist, for {@link #watches}; every other id is gone. */
  private final Set<String> existing = ConcurrentHashMap.newKeySet();

  /** Watches as the owner asks them: deleted or read, by what {@link #existing} holds. */
  private WatchEntity.Refs watches() {
    ActorRef<WatchEntity.Command> watch =
        testKit.spawn(
            Behaviors.receiveMessage(
                command -> {
                  // which watch is asked does not matter here: one id is asked at a time
                  String id = asked.get();
                  if (command instanceof WatchEntity.Delete delete)
                    delete
                        .replyTo()
                        .tell(
                            existing.remove(id)
                                ? StatusReply.ack()
                                : StatusReply.error("watch not found"));
                  if (command instanceof WatchEntity.Get get)
                    get.replyTo()
                        .tell(
                            existing.contains(id)
                                ? StatusReply.success(TestWatches.acme(id, null))
                                : StatusReply.error("watch not found"));
                  return Behaviors.same();
                }));
    return (owner, watchId) -> {
      asked.set(watchId);
      return watch;
    };
  }

  private final AtomicReference<String> asked = new AtomicReference<>();

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          AccountEntity.Command, AccountEntity.Event, AccountEntity.State, StatusReply<Done>>
      createAccount(Account account) {
    return owner.runCommand(r -> new AccountEntity.CreateAccount(account, r));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          AccountEntity.Command, AccountEntity.Event, AccountEntity.State, StatusReply<Done>>
      addWatch(String id) {
    return owner.runCommand(r -> new AccountEntity.AddWatch(id, r));
  }

  private StatusReply<Account> getAccount() {
    return owner.<StatusReply<Account>>runCommand(AccountEntity.GetAccount::new).reply();
  }

  private List<String> listWatches() {
    return owner
        .<StatusReply<AccountEntity.WatchIds>>runCommand(AccountEntity.ListWatches::new)
        .reply()
        .getValue()
        .ids();
  }

  @Test
  public void eventsAndStateGoThroughTheServiceJacksonBinding() {
    Serialization serialization = SerializationExtension.get(testKit.system());
    for (Object message :
        List.of(
            new AccountEntity.WatchesAdded(List.of("w")),
            new AccountEntity.WatchRemoved("w"),
            new AccountEntity.State(ALICE, WatchRegistry.of(List.of()), List.of()))) {
      assertEquals(
          "JacksonJsonSerializer",
          serialization.findSerializerFor(message).getClass().getSimpleName());
    }
  }

  @Test
  public void creatingAnAccountPersistsAccountCreated() {
    var result = createAccount(ALICE);
    assertTrue(result.reply().isSuccess());
    assertEquals(new AccountEntity.AccountCreated(ALICE), result.event());
    assertEquals(ALICE, result.state().account());
  }

  @Test
  public void aCreatedAccountIsAnswered() {
    createAccount(ALICE);
    assertEquals(ALICE, getAccount().getValue());
  }

  @Test
  public void aSecondCreateIsRefusedAndPersistsNothing() {
    createAccount(ALICE);
    Account other =
        Account.made("alice", "other@example.org", Role.ADMIN, "$2a$10$other", Instant.now());
    var again = createAccount(other);
    assertTrue(again.reply().isError());
    assertTrue(again.hasNoEvents());
    assertEquals("the first account stays", ALICE, getAccount().getValue());
  }

  @Test
  public void getAccountIsRefusedBeforeTheAccountIsCreated() {
    assertTrue(getAccount().isError());
  }

  @Test
  public void addingAWatchPersistsWatchAdded() {
    var result = addWatch("w1");
    assertTrue(result.reply().isSuccess());
    assertEquals(new AccountEntity.WatchesAdded(List.of("w1")), result.event());
  }

  @Test
  public void addingAKnownWatchAgainSucceedsAndPersistsNothing() {
    addWatch("w1");
    var again = addWatch("w1");
    assertTrue(again.reply().isSuccess());
    assertTrue(again.hasNoEvents());
    assertEquals(List.of("w1"), listWatches());
  }

  @Test
  public void watchesAreListedInTheOrderTheyWereAdded() {
    addWatch("b");
    addWatch("c");
    addWatch("a");
    addWatch("b");
    assertEquals(List.of("b", "c", "a"), listWatches());
  }

  @Test
  public void aNewOwnerListsNoWatches() {
    assertEquals(List.of(), listWatches());
  }

  @Test
  public void restartRecoversTheAccountAndTheWatchIds() {
    createAccount(ALICE);
    addWatch("w2");
    addWatch("w1");
    owner.restart();
    assertEquals(
        new AccountEntity.State(ALICE, WatchRegistry.of(List.of("w2", "w1")), List.of()),
        owner.getState());
    assertEquals(ALICE, getAccount().getValue());
  }

  private StatusReply<Done> deleteWatch(String id) {
    return owner
        .<StatusReply<Done>>runCommand(r -> new AccountEntity.DeleteWatch(id, null, r))
        .reply();
  }

  @Test
  public void deletingAWatchDeletesItThenForgetsItsId() {
    existing.addAll(List.of("w1", "w2"));
    addWatch("w1");
    addWatch("w2");
    assertTrue(deleteWatch("w1").isSuccess());
    assertEquals(Set.of("w2"), existing);
    assertEquals(List.of("w2"), listWatches());
    owner.restart();
    assertEquals(List.of("w2"), listWatches());
  }

  @Test
  public void deletingAWatchThatIsNotThereIsRefusedAndForgetsItsId() {
    addWatch("w1");
    StatusReply<Done> refused = deleteWatch("w1");
    assertTrue(refused.isError());
    assertEquals("watch not found", refused.getError().getMessage());
    assertEquals(List.of(), listWatches());
  }

  @Test
  public void anIdIsForgottenOnlyWhenItsWatchIsGone() throws Exception {
    existing.add("live");
    addWatch("live");
    addWatch("gone");
    owner.runCommand(new AccountEntity.ForgetWatchIfGone("live"));
    owner.runCommand(new AccountEntity.ForgetWatchIfGone("gone"));
    // the checks answer asynchronously; the listing waits behind neither, so look until it settles
    for (int i = 0; i < 100 && listWatches().size() > 1; i++) Thread.sleep(20);
    assertEquals(List.of("live"), listWatches());
  }

  @Test
  public void aRegistrationArrivingWhileADeleteIsAskedWaitsForItAndStays() {
    var live =
        testKit.spawn(AccountEntity.create("race-" + java.util.UUID.randomUUID(), watches()));
    var added = testKit.<StatusReply<Done>>createTestProbe();
    live.tell(new AccountEntity.AddWatch("w", added.ref()));
    assertTrue(added.receiveMessage().isSuccess());
    existing.add("w");
    // the delete is asked, and the same id registered again right behind it (a create racing it)
    var deleted = testKit.<StatusReply<Done>>createTestProbe();
    live.tell(new AccountEntity.DeleteWatch("w", null, deleted.ref()));
    var again = testKit.<StatusReply<Done>>createTestProbe();
    live.tell(new AccountEntity.AddWatch("w", again.ref()));
    assertTrue(deleted.receiveMessage().isSuccess());
    assertTrue(again.receiveMessage().isSuccess());
    var list = testKit.<StatusReply<AccountEntity.WatchIds>>createTestProbe();
    live.tell(new AccountEntity.ListWatches(list.ref()));
    assertEquals(List.of("w"), list.receiveMessage().getValue().ids());
  }

  @Test
  public void registrationsArrivingTogetherAreAllAcknowledgedAndListed() {
    var live = testKit.spawn(TestAccounts.idle("batch-" + java.util.UUID.randomUUID()));
    List<org.apache.pekko.actor.testkit.typed.javadsl.TestProbe<StatusReply<Done>>> probes =
        new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      var probe = testKit.<StatusReply<Done>>createTestProbe();
      probes.add(probe);
      live.tell(new AccountEntity.AddWatch("w" + i, probe.ref()));
    }
    probes.forEach(p -> assertTrue(p.receiveMessage().isSuccess()));
    var list = testKit.<StatusReply<AccountEntity.WatchIds>>createTestProbe();
    live.tell(new AccountEntity.ListWatches(list.ref()));
    assertEquals(List.of("w0", "w1", "w2", "w3", "w4"), list.receiveMessage().getValue().ids());
  }

  @Test
  public void registrationsBoundByAMostTakeNoMorePlacesThanItEvenArrivingTogether() {
    var live = testKit.spawn(TestAccounts.idle("bound-" + java.util.UUID.randomUUID()));
    List<org.apache.pekko.actor.testkit.typed.javadsl.TestProbe<StatusReply<Done>>> probes =
        new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      var probe = testKit.<StatusReply<Done>>createTestProbe();
      probes.add(probe);
      live.tell(new AccountEntity.AddWatch("w" + i, 2, probe.ref()));
    }
    assertTrue(probes.get(0).receiveMessage().isSuccess());
    assertTrue(probes.get(1).receiveMessage().isSuccess());
    for (var refused : probes.subList(2, 4))
      assertEquals(
          AccountEntity.NO_ROOM_FOR_WATCH, refused.receiveMessage().getError().getMessage());
    var known = testKit.<StatusReply<Done>>createTestProbe();
    live.tell(new AccountEntity.AddWatch("w1", 2, known.ref()));
    assertTrue("a known id takes no new place", known.receiveMessage().isSuccess());
    var list = testKit.<StatusReply<AccountEntity.WatchIds>>createTestProbe();
    live.tell(new AccountEntity.ListWatches(list.ref()));
    assertEquals(List.of("w0", "w1"), list.receiveMessage().getValue().ids());
  }
}
