package io.periscope.account;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.auth.MailedTokens;
import io.periscope.auth.Role;
import io.periscope.auth.TokenPurpose;
import io.periscope.json.Json;
import io.periscope.testing.EntityTestKits;
import io.periscope.testing.TestAccounts;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The account entity's mailed tokens, e-mail verification, password reset and identity-provider
 * verification under the persistence testkit, every command, event and state round-tripping through
 * the service's Jackson binding.
 */
public class AccountEntityTokensTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final Instant LATER = NOW.plusSeconds(3600);
  private static final Account REGISTERED =
      new Account("alice-x", "alice@example.org", Role.USER, "$2a$10$first", NOW, false, 0);

  private EventSourcedBehaviorTestKit<
          AccountEntity.Command, AccountEntity.Event, AccountEntity.State>
      owner;

  @Before
  public void setUp() {
    owner =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            TestAccounts.idle("alice-x"),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
    owner.<StatusReply<org.apache.pekko.Done>>runCommand(
        r -> new AccountEntity.CreateAccount(REGISTERED, r));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          AccountEntity.Command, AccountEntity.Event, AccountEntity.State, StatusReply<Account>>
      issue(TokenPurpose purpose, String hash) {
    return owner.runCommand(r -> new AccountEntity.IssueToken(purpose, hash, LATER, r));
  }

  private StatusReply<Account> verify(String hash, Instant at) {
    return owner
        .<StatusReply<Account>>runCommand(r -> new AccountEntity.VerifyEmail(hash, at, r))
        .reply();
  }

  private StatusReply<Account> reset(String hash, String newPassword, Instant at) {
    return owner
        .<StatusReply<Account>>runCommand(
            r -> new AccountEntity.ResetPassword(hash, newPassword, at, r))
        .reply();
  }

  @Test
  public void anIssuedTokenIsKeptAsItsHashAndAnswersTheAccount() {
    var result = issue(TokenPurpose.VERIFY_EMAIL, "h1");
    assertEquals(
        new AccountEntity.TokenIssued(TokenPurpose.VERIFY_EMAIL, "h1", LATER), result.event());
    assertEquals("alice@example.org", result.reply().getValue().email());
    assertEquals(
        List.of(new PendingToken(TokenPurpose.VERIFY_EMAIL, "h1", LATER)), result.state().tokens());
  }

  @Test
  public void verificationIsSingleUse() {
    issue(TokenPurpose.VERIFY_EMAIL, "h1");
    StatusReply<Account> first = verify("h1", NOW);
    assertTrue(first.getValue().emailVerified());
    assertEquals(
        "the password stays: the mailbox owner registered it",
        "$2a$10$first",
        first.getValue().passwordHash());
    assertEquals(MailedTokens.TOKEN_REFUSED, verify("h1", NOW).getError().getMessage());
  }

  @Test
  public void aWrongExpiredOrOtherPurposeTokenIsRefusedAlike() {
    issue(TokenPurpose.VERIFY_EMAIL, "h1");
    issue(TokenPurpose.RESET_PASSWORD, "h2");
    assertEquals(MailedTokens.TOKEN_REFUSED, verify("nope", NOW).getError().getMessage());
    assertEquals(MailedTokens.TOKEN_REFUSED, verify("h1", LATER).getError().getMessage());
    assertEquals(MailedTokens.TOKEN_REFUSED, verify("h2", NOW).getError().getMessage());
    assertFalse(owner.getState().account().emailVerified());
  }

  @Test
  public void aNewTokenReplacesTheEarlierOneOfItsPurpose() {
    issue(TokenPurpose.RESET_PASSWORD, "old");
    issue(TokenPurpose.RESET_PASSWORD, "new");
    assertTrue(reset("old", "$2a$10$x", NOW).isError());
    assertTrue(reset("new", "$2a$10$x", NOW).isSuccess());
  }

  @Test
  public void checkingATokenUsesNothing() {
    issue(TokenPurpose.RESET_PASSWORD, "h2");
    var check =
        owner.<StatusReply<Account>>runCommand(
            r -> new AccountEntity.CheckToken(TokenPurpose.RESET_PASSWORD, "h2", NOW, r));
    assertTrue(check.reply().isSuccess());
    assertTrue(check.hasNoEvents());
    assertTrue(reset("h2", "$2a$10$x", NOW).isSuccess());
  }

  @Test
  public void aResetSetsThePasswordProvesTheAddressAndEndsEarlierSessions() {
    issue(TokenPurpose.VERIFY_EMAIL, "h1");
    issue(TokenPurpose.RESET_PASSWORD, "h2");
    Account after = reset("h2", "$2a$10$second", NOW).getValue();
    assertEquals("$2a$10$second", after.passwordHash());
    assertTrue(after.emailVerified());
    assertEquals(1, after.sessionGeneration());
    assertEquals("both tokens are spent", List.of(), owner.getState().tokens());
    assertTrue(reset("h2", "$2a$10$third", NOW).isError());
  }

  @Test
  public void verificationOfAVerifiedAddressIsNotIssued() {
    issue(TokenPurpose.VERIFY_EMAIL, "h1");
    verify("h1", NOW);
    var again = issue(TokenPurpose.VERIFY_EMAIL, "h3");
    assertTrue(again.reply().isError());
    assertTrue(again.hasNoEvents());
  }

  @Test
  public void aProviderVerifyingAnUnverifiedAccountRevokesItsUnprovenPassword() {
    var result =
        owner.<StatusReply<Account>>runCommand(
            r -> new AccountEntity.VerifiedByProvider("github", r));
    assertEquals(new AccountEntity.EmailVerified("github", true), result.event());
    assertTrue(result.reply().getValue().emailVerified());
    assertNull(result.reply().getValue().passwordHash());
    assertEquals(1, result.reply().getValue().sessionGeneration());
    var again =
        owner.<StatusReply<Account>>runCommand(
            r -> new AccountEntity.VerifiedByProvider("github", r));
    assertTrue("a verified account is signed in as it is", again.hasNoEvents());
  }

  @Test
  public void tokensAndVerificationSurviveARestart() {
    issue(TokenPurpose.RESET_PASSWORD, "h2");
    issue(TokenPurpose.VERIFY_EMAIL, "h1");
    verify("h1", NOW);
    AccountEntity.State before = owner.getState();
    owner.restart();
    assertEquals(before, owner.getState());
    assertTrue(owner.getState().account().emailVerified());
    assertTrue(
        "the reset token is still live after recovery",
        reset("h2", "$2a$10$second", NOW).isSuccess());
    owner.restart();
    assertEquals(1, owner.getState().account().sessionGeneration());
    assertTrue("and still spent", reset("h2", "$2a$10$third", NOW).isError());
  }

  @Test
  public void accountsWrittenBeforeVerificationExistedReadAsVerified() throws Exception {
    String older =
        "{\"id\":\"root\",\"email\":\"root@example.org\",\"role\":\"admin\",\"passwordHash\":\"$2"
            + "a$10$h\","
            + "\"createdAt\":\"2026-01-01T00:00:00Z\"}";
    Account account = Json.MAPPER.readValue(older, Account.class);
    assertTrue(account.emailVerified());
    assertEquals(0, account.sessionGeneration());
  }
}
