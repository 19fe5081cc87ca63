package io.periscope.auth;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import io.periscope.testing.EntityTestKits;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

public class EmailEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit = new TestKitJunitResource(EntityTestKits.config());

  private EventSourcedBehaviorTestKit<EmailEntity.Command, EmailEntity.Event, EmailEntity.State> email;

  @Before
  public void setUp() {
    email = EventSourcedBehaviorTestKit.create(testKit.system(), EmailEntity.create("alice@example.org"));
  }

  private StatusReply<Boolean> claim(String account) {
    return email.<StatusReply<Boolean>>runCommand(r -> new EmailEntity.Claim(account, r)).reply();
  }

  @Test
  public void anAddressBelongsToOneAccount() {
    assertEquals("the first claim takes the address", Boolean.TRUE, claim("alice").getValue());
    assertEquals("claiming again for the same account is fine, but takes nothing", Boolean.FALSE,
        claim("alice").getValue());
    assertTrue("another account is refused", claim("mallory").isError());
    assertEquals("alice", email.<StatusReply<String>>runCommand(EmailEntity.Lookup::new).reply().getValue());
  }

  @Test
  public void releasingFreesTheAddressOnlyForItsHolder() {
    claim("alice");
    email.<StatusReply<Done>>runCommand(r -> new EmailEntity.Release("mallory", r));
    assertTrue(claim("bob").isError());
    email.<StatusReply<Done>>runCommand(r -> new EmailEntity.Release("alice", r));
    assertTrue(email.<StatusReply<String>>runCommand(EmailEntity.Lookup::new).reply().isError());
    assertTrue(claim("bob").isSuccess());
  }

  @Test
  public void addressesAreNormalized() {
    assertEquals("alice@example.org", EmailEntity.normalize("  Alice@Example.ORG "));
  }

  @Test
  public void restartRecoversTheClaim() {
    claim("alice");
    email.restart();
    assertEquals("alice", email.getState().accountId());
  }
}
