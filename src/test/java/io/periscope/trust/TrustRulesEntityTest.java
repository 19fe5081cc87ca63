package io.periscope.trust;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

public class TrustRulesEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private EventSourcedBehaviorTestKit<
          TrustRulesEntity.Command, TrustRulesEntity.Event, TrustRulesEntity.State>
      entity;

  @Before
  public void setUp() {
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            TrustRulesEntity.create("alice"),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  private StatusReply<TrustRule> put(String pattern, String tier) {
    return entity
        .<StatusReply<TrustRule>>runCommand(
            r -> new TrustRulesEntity.Put(new TrustRule(pattern, tier), r))
        .reply();
  }

  private List<TrustRule> rules() {
    return entity
        .<StatusReply<TrustRulesEntity.Rules>>runCommand(TrustRulesEntity.GetRules::new)
        .reply()
        .getValue()
        .rules();
  }

  @Test
  public void settingAPatternAgainReplacesItsTierAndTheRulesSurviveARestart() {
    put("example.org", "official");
    put("*.gov", "established");
    put("example.org", "community");
    entity.restart();
    assertEquals(
        List.of(new TrustRule("*.gov", "established"), new TrustRule("example.org", "community")),
        rules());
  }

  @Test
  public void anUnchangedRuleWritesNothing() {
    put("example.org", "official");
    var again =
        entity.<StatusReply<TrustRule>>runCommand(
            r -> new TrustRulesEntity.Put(new TrustRule("example.org", "official"), r));
    assertTrue(again.hasNoEvents());
    assertTrue(again.reply().isSuccess());
  }

  @Test
  public void removingARuleThatIsNotThereIsRefusedAndRemovalSurvivesARestart() {
    put("example.org", "official");
    var missing =
        entity.<StatusReply<Done>>runCommand(r -> new TrustRulesEntity.Remove("example.com", r));
    assertTrue(missing.reply().isError());
    assertTrue(missing.hasNoEvents());
    var removed =
        entity.<StatusReply<Done>>runCommand(r -> new TrustRulesEntity.Remove("example.org", r));
    assertTrue(removed.reply().isSuccess());
    entity.restart();
    assertEquals(List.of(), rules());
  }

  @Test
  public void anOwnerHasAtMostTheBoundOfRulesButMayStillChangeThem() {
    for (int i = 0; i < TrustRulesEntity.MAX_RULES; i++) put("d" + i + ".example", "community");
    assertTrue(put("one-more.example", "official").isError());
    assertTrue(
        "an existing pattern may change its tier", put("d0.example", "official").isSuccess());
    assertEquals(TrustRulesEntity.MAX_RULES, rules().size());
  }
}
