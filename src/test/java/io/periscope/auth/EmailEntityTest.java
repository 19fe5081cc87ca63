package io.periscope.auth;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The e-mail index entity under the persistence testkit, with the service's serialization bindings.
 */
public class EmailEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private EventSourcedBehaviorTestKit<EmailEntity.Command, EmailEntity.Event, EmailEntity.State>
      email;

  @Before
  public void setUp() {
    email =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            EmailEntity.create("alice@example.org"),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          EmailEntity.Command, EmailEntity.Event, EmailEntity.State, StatusReply<Boolean>>
      claim(String account) {
    return email.runCommand(r -> new EmailEntity.Claim(account, r));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<
          EmailEntity.Command, EmailEntity.Event, EmailEntity.State, StatusReply<Done>>
      release(String account) {
    return email.runCommand(r -> new EmailEntity.Release(account, r));
  }

  private StatusReply<String> lookup() {
    return email.<StatusReply<String>>runCommand(EmailEntity.Lookup::new).reply();
  }

  @Test
  public void theFirstClaimTakesTheAddress() {
    var result = claim("alice");
    assertEquals(Boolean.TRUE, result.reply().getValue());
    assertEquals(new EmailEntity.Claimed("alice"), result.event());
  }

  @Test
  public void claimingAgainForTheSameAccountSucceedsButTakesNothing() {
    claim("alice");
    var again = claim("alice");
    assertEquals(Boolean.FALSE, again.reply().getValue());
    assertTrue(again.hasNoEvents());
  }

  @Test
  public void aClaimByAnotherAccountIsRefused() {
    claim("alice");
    var other = claim("mallory");
    assertTrue(other.reply().isError());
    assertTrue(other.hasNoEvents());
    assertEquals("alice", lookup().getValue());
  }

  @Test
  public void lookupOfAFreeAddressIsRefused() {
    assertTrue(lookup().isError());
  }

  @Test
  public void lookupAnswersTheHolder() {
    claim("alice");
    assertEquals("alice", lookup().getValue());
  }

  @Test
  public void releaseByTheHolderFreesTheAddress() {
    claim("alice");
    var result = release("alice");
    assertTrue(result.reply().isSuccess());
    assertEquals(new EmailEntity.Released("alice"), result.event());
    assertTrue(lookup().isError());
    assertEquals("another account may now claim it", Boolean.TRUE, claim("bob").reply().getValue());
  }

  @Test
  public void releaseByAnotherAccountChangesNothing() {
    claim("alice");
    var result = release("mallory");
    assertTrue(result.reply().isSuccess());
    assertTrue(result.hasNoEvents());
    assertEquals("alice", lookup().getValue());
  }

  @Test
  public void addressesAreNormalizedToTrimmedLowerCase() {
    assertEquals("alice@example.org", EmailEntity.normalize("  Alice@Example.ORG "));
  }

  @Test
  public void restartRecoversTheClaim() {
    claim("alice");
    email.restart();
    assertEquals("alice", email.getState().accountId());
    assertTrue(claim("mallory").reply().isError());
  }

  @Test
  public void restartAfterAReleaseKeepsTheAddressFree() {
    claim("alice");
    release("alice");
    email.restart();
    assertNull(email.getState().accountId());
  }
}
