package io.periscope.auth;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
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

  private StatusReply<Done> invite(String hash, java.time.Instant until) {
    return email
        .<StatusReply<Done>>runCommand(
            r -> new EmailEntity.Invite(new EmailEntity.Invitation(hash, until), r))
        .reply();
  }

  private boolean invited(String hash, java.time.Instant now) {
    return email
        .<StatusReply<Done>>runCommand(r -> new EmailEntity.CheckInvitation(hash, now, r))
        .reply()
        .isSuccess();
  }

  private boolean signedInBefore(String network) {
    return email
        .<StatusReply<Boolean>>runCommand(r -> new EmailEntity.SignedInBefore(network, r))
        .reply()
        .getValue();
  }

  private int remember(String network) {
    return email
        .<StatusReply<Done>>runCommand(r -> new EmailEntity.RememberSignIn(network, r))
        .events()
        .size();
  }

  @Test
  public void theNetworksItsAccountSignedInFromAreRememberedTheLastSixteen() {
    assertEquals("a free address remembers nothing", 0, remember("198.51.100.0/24"));
    claim("alice");
    assertEquals(1, remember("198.51.100.0/24"));
    assertEquals("once", 0, remember("198.51.100.0/24"));
    email.restart();
    assertTrue(signedInBefore("198.51.100.0/24"));
    assertFalse(signedInBefore("203.0.113.0/24"));
    for (int i = 0; i < EmailEntity.SIGN_IN_NETWORKS; i++) remember("10.0." + i + ".0/24");
    assertFalse("the oldest is forgotten", signedInBefore("198.51.100.0/24"));
    assertTrue(signedInBefore("10.0.15.0/24"));
    release("alice");
    claim("bob");
    assertFalse("a new holder starts afresh", signedInBefore("10.0.15.0/24"));
  }

  @Test
  public void anInvitationWorksForItsHashUntilItExpiresOrTheAddressIsClaimed() {
    java.time.Instant t0 = java.time.Instant.parse("2026-11-25T12:00:00Z");
    assertTrue(invite("hash-1", t0.plusSeconds(60)).isSuccess());
    email.restart();
    assertTrue(invited("hash-1", t0));
    assertFalse(invited("hash-2", t0));
    assertFalse("expired", invited("hash-1", t0.plusSeconds(60)));
    claim("alice");
    assertFalse("spent by the claim", invited("hash-1", t0));
    release("alice");
    assertFalse("and stays spent", invited("hash-1", t0));
    assertTrue("free again: a new one", invite("hash-3", t0.plusSeconds(60)).isSuccess());
    claim("bob");
    assertTrue("held: no invitation", invite("hash-4", t0.plusSeconds(60)).isError());
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
