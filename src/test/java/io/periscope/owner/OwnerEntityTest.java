package io.periscope.owner;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import io.periscope.auth.Role;
import io.periscope.testing.EntityTestKits;
import java.time.Instant;
import java.util.List;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

public class OwnerEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit = new TestKitJunitResource(EntityTestKits.config());

  private static final Account ALICE = new Account("alice", "alice@example.org", Role.USER, "$2a$10$hash",
      Instant.parse("2026-11-22T12:00:00Z"));

  private EventSourcedBehaviorTestKit<OwnerEntity.Command, OwnerEntity.Event, OwnerEntity.State> owner;

  @Before
  public void setUp() {
    owner = EventSourcedBehaviorTestKit.create(testKit.system(), OwnerEntity.create("alice"));
  }

  @Test
  public void anAccountIsCreatedOnce() {
    assertTrue(owner.<StatusReply<Done>>runCommand(r -> new OwnerEntity.CreateAccount(ALICE, r)).reply().isSuccess());
    var again = owner.<StatusReply<Done>>runCommand(r -> new OwnerEntity.CreateAccount(ALICE, r));
    assertTrue(again.reply().isError() && again.hasNoEvents());
    assertEquals(ALICE, owner.<StatusReply<Account>>runCommand(OwnerEntity.GetAccount::new).reply().getValue());
  }

  @Test
  public void thereIsNoAccountBeforeItIsCreated() {
    assertTrue(owner.<StatusReply<Account>>runCommand(OwnerEntity.GetAccount::new).reply().isError());
  }

  @Test
  public void watchIdsAreListedInCreationOrderAndAddingIsIdempotent() {
    owner.<StatusReply<Done>>runCommand(r -> new OwnerEntity.AddWatch("b", r));
    owner.<StatusReply<Done>>runCommand(r -> new OwnerEntity.AddWatch("a", r));
    var again = owner.<StatusReply<Done>>runCommand(r -> new OwnerEntity.AddWatch("b", r));
    assertTrue(again.hasNoEvents());
    var list = owner.<StatusReply<OwnerEntity.WatchIds>>runCommand(OwnerEntity.ListWatches::new);
    assertEquals(List.of("b", "a"), list.reply().getValue().ids());
  }

  @Test
  public void restartRecoversAccountAndWatchIds() {
    owner.<StatusReply<Done>>runCommand(r -> new OwnerEntity.CreateAccount(ALICE, r));
    owner.<StatusReply<Done>>runCommand(r -> new OwnerEntity.AddWatch("w1", r));
    owner.restart();
    assertEquals(ALICE, owner.getState().account());
    assertEquals(List.of("w1"), owner.getState().watchIds());
  }
}
