package io.periscope.auth;

import static org.junit.Assert.assertNotEquals;

import io.periscope.testing.EntityTestKits;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.junit.ClassRule;
import org.junit.Test;

/** Admin changes take turns: one held at a time, the next given when it ends or expires. */
public class AdminTurnsEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private TestProbe<StatusReply<String>> take(ActorRef<AdminTurnsEntity.Command> turns) {
    TestProbe<StatusReply<String>> probe = testKit.createTestProbe();
    turns.tell(new AdminTurnsEntity.Take(probe.ref()));
    return probe;
  }

  @Test
  public void oneTurnAtATimeAndTheNextWhenItIsGivenBack() {
    var turns = testKit.spawn(AdminTurnsEntity.create(Duration.ofMinutes(1)));
    String first = take(turns).receiveMessage().getValue();
    var second = take(turns);
    var third = take(turns);
    second.expectNoMessage(Duration.ofMillis(200));

    turns.tell(new AdminTurnsEntity.GiveBack("not-the-held-turn"));
    second.expectNoMessage(Duration.ofMillis(200));
    turns.tell(new AdminTurnsEntity.GiveBack(first));
    String next = second.receiveMessage().getValue();
    assertNotEquals(first, next);
    third.expectNoMessage(Duration.ofMillis(200));
    turns.tell(new AdminTurnsEntity.GiveBack(next));
    third.receiveMessage();
  }

  @Test
  public void aTurnNeverGivenBackEndsAfterItsBound() {
    var turns = testKit.spawn(AdminTurnsEntity.create(Duration.ofMillis(300)));
    take(turns).receiveMessage(); // its holder's node died: never given back
    var waiting = take(turns);
    waiting.expectNoMessage(Duration.ofMillis(150));
    waiting.receiveMessage(Duration.ofSeconds(2));
  }
}
