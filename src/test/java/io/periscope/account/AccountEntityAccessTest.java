package io.periscope.account;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.auth.Role;
import io.periscope.auth.TokenScope;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.TestAccounts;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * What the account entity keeps for access: ended sign-ins, role, disabling, deletion and personal
 * API tokens. Commands, events and state round-trip through the service's Jackson binding (the
 * testkit's serialization check) and replay to the same state.
 */
public class AccountEntityAccessTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");
  static final Account ADA = Account.made("ada", "ada@example.org", Role.USER, "$2a$10$h", T0);

  private EventSourcedBehaviorTestKit<
          AccountEntity.Command, AccountEntity.Event, AccountEntity.State>
      owner;

  @Before
  public void setUp() {
    owner =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            TestAccounts.idle("ada"),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
    owner.<StatusReply<Done>>runCommand(r -> new AccountEntity.CreateAccount(ADA, r));
  }

  private AccountEntity.Access access() {
    return owner
        .<StatusReply<AccountEntity.Access>>runCommand(AccountEntity.GetAccess::new)
        .reply()
        .getValue();
  }

  @Test
  public void anEndedSignInIsRememberedUntilItsTokenWouldHaveExpired() {
    owner.<StatusReply<AccountEntity.Access>>runCommand(
        r -> new AccountEntity.EndSession("s1", T0.plusSeconds(60), T0, r));
    assertEquals(List.of("s1"), access().endedSessions());
    owner.<StatusReply<AccountEntity.Access>>runCommand(
        r -> new AccountEntity.EndSession("s2", T0.plusSeconds(200), T0.plusSeconds(100), r));
    assertEquals("s1 expired by then", List.of("s2"), access().endedSessions());
    owner.restart();
    assertEquals(List.of("s2"), access().endedSessions());
  }

  @Test
  public void endingEverySignInMovesTheGenerationOn() {
    owner.<StatusReply<AccountEntity.Access>>runCommand(
        r -> new AccountEntity.EndSession(null, T0, T0, r));
    assertEquals(1, access().account().sessionGeneration());
  }

  @Test
  public void disablingEndsSignInsAndEnablingDoesNotBringThemBack() {
    var disabled =
        owner.<StatusReply<Account>>runCommand(r -> new AccountEntity.SetDisabled(true, r));
    assertTrue(disabled.reply().getValue().disabled());
    assertEquals(1, disabled.reply().getValue().sessionGeneration());
    var again = owner.<StatusReply<Account>>runCommand(r -> new AccountEntity.SetDisabled(true, r));
    assertTrue("unchanged: nothing written", again.hasNoEvents());
    owner.<StatusReply<Account>>runCommand(r -> new AccountEntity.SetDisabled(false, r));
    owner.restart();
    Account now = access().account();
    assertFalse(now.disabled());
    assertEquals(1, now.sessionGeneration());
  }

  @Test
  public void aRoleChangeIsKept() {
    owner.<StatusReply<Account>>runCommand(r -> new AccountEntity.ChangeRole(Role.ADMIN, r));
    owner.restart();
    assertEquals(Role.ADMIN, access().account().role());
  }

  @Test
  public void aPasswordChangeNeedsTheHashItReplaces() {
    var stale =
        owner.<StatusReply<Account>>runCommand(
            r -> new AccountEntity.ChangePassword("$2a$10$other", "$2a$10$new", r));
    assertTrue(stale.reply().isError());
    assertTrue(stale.hasNoEvents());
    var changed =
        owner.<StatusReply<Account>>runCommand(
            r -> new AccountEntity.ChangePassword("$2a$10$h", "$2a$10$new", r));
    assertEquals("$2a$10$new", changed.reply().getValue().passwordHash());
    assertEquals(1, changed.reply().getValue().sessionGeneration());
  }

  @Test
  public void aDeletedAccountIsGoneAndItsIdStaysTaken() {
    owner.<StatusReply<Account>>runCommand(r -> new AccountEntity.DeleteAccount(T0, r));
    owner.restart();
    AccountEntity.Access access = access();
    assertTrue(access.deleted());
    assertNull(access.account());
    var recreate =
        owner.<StatusReply<Done>>runCommand(r -> new AccountEntity.CreateAccount(ADA, r));
    assertTrue(recreate.reply().isError());
    assertTrue(
        owner
            .<StatusReply<Account>>runCommand(r -> new AccountEntity.ChangeRole(Role.ADMIN, r))
            .reply()
            .isError());
  }

  @Test
  public void apiTokensAreKeptHashedNamedOnceAndTheirUseToTheMinute() {
    ApiToken token = new ApiToken("t1", "ci", "hash-1", T0, null, null, List.of(TokenScope.READ));
    owner.<StatusReply<Done>>runCommand(r -> new AccountEntity.CreateApiToken(token, r));
    var sameName =
        owner.<StatusReply<Done>>runCommand(
            r ->
                new AccountEntity.CreateApiToken(
                    new ApiToken("t2", "ci", "hash-2", T0, null, null, List.of(TokenScope.READ)),
                    r));
    assertTrue(sameName.reply().isError());
    owner.runCommand(new AccountEntity.TouchApiToken("t1", T0.plusSeconds(5)));
    var soon = owner.runCommand(new AccountEntity.TouchApiToken("t1", T0.plusSeconds(30)));
    assertTrue("within the minute: nothing written", soon.hasNoEvents());
    assertEquals(T0.plusSeconds(5), access().apiTokens().get(0).lastUsedAt());
    owner.restart();
    assertEquals(T0.plusSeconds(5), access().apiTokens().get(0).lastUsedAt());
    owner.<StatusReply<Done>>runCommand(r -> new AccountEntity.RevokeApiToken("t1", r));
    assertEquals(List.of(), access().apiTokens());
    assertTrue(
        owner
            .<StatusReply<Done>>runCommand(r -> new AccountEntity.RevokeApiToken("t1", r))
            .reply()
            .isError());
  }

  @Test
  public void anOwnerWithoutAnAccountAnswersItsAccessAndRefusesChanges() {
    var empty =
        EventSourcedBehaviorTestKit
            .<AccountEntity.Command, AccountEntity.Event, AccountEntity.State>create(
                testKit.system(), TestAccounts.idle("nobody"));
    AccountEntity.Access access =
        empty
            .<StatusReply<AccountEntity.Access>>runCommand(AccountEntity.GetAccess::new)
            .reply()
            .getValue();
    assertNull(access.account());
    assertFalse(access.deleted());
    assertTrue(
        empty
            .<StatusReply<Account>>runCommand(r -> new AccountEntity.SetDisabled(true, r))
            .reply()
            .isError());
  }
}
