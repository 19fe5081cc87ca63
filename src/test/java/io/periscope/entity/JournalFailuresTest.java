package io.periscope.entity;

import static org.junit.Assert.assertEquals;

import io.periscope.testing.EntityTestKits;
import io.periscope.trust.TrustRule;
import io.periscope.trust.TrustRulesEntity;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.ClassRule;
import org.junit.Test;

/** An entity whose journal write failed comes back by itself, with the state the journal holds. */
public class JournalFailuresTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  @Test
  public void anEntityRestartsAfterAFailedWrite() {
    PersistenceTestKit journal = PersistenceTestKit.create(testKit.system());
    ActorRef<TrustRulesEntity.Command> entity =
        testKit.spawn(TrustRulesEntity.create("journal-failure"));
    TestProbe<StatusReply<TrustRule>> replies = testKit.createTestProbe();

    journal.failNextPersisted();
    entity.tell(new TrustRulesEntity.Put(new TrustRule("example.org", "official"), replies.ref()));
    replies.expectNoMessage(
        Duration.ofMillis(300)); // the write failed: the entity stopped, nothing was answered

    // back after the backoff: a command is answered again, from what the journal holds (nothing of
    // the failed write)
    TestProbe<StatusReply<TrustRulesEntity.Rules>> rules = testKit.createTestProbe();
    StatusReply<TrustRulesEntity.Rules> answer =
        rules.awaitAssert(
            Duration.ofSeconds(10),
            Duration.ofMillis(500),
            () -> {
              entity.tell(new TrustRulesEntity.GetRules(rules.ref()));
              return rules.receiveMessage(Duration.ofMillis(400));
            });
    assertEquals(List.of(), answer.getValue().rules());
  }
}
