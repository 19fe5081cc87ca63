package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import io.periscope.testing.EntityTestKits;
import java.util.List;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

public class WatchEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit = new TestKitJunitResource(EntityTestKits.config());

  private EventSourcedBehaviorTestKit<WatchEntity.Command, WatchEntity.Event, WatchEntity.State> entity;

  static Watch watch(String name, Double weak) {
    return new Watch("acme", "alice", name, List.of(new Source(Source.SEARCH, "acme rocket launch", "official", 7)),
        "0 */6 * * *", "Acme announces a launch date", List.of("telegram"), 0.8, weak, true);
  }

  @Before
  public void setUp() {
    entity = EventSourcedBehaviorTestKit.create(testKit.system(), WatchEntity.create("alice:acme"));
  }

  private EventSourcedBehaviorTestKit.CommandResultWithReply<WatchEntity.Command, WatchEntity.Event,
      WatchEntity.State, StatusReply<Watch>> create(Watch w) {
    return entity.runCommand(r -> new WatchEntity.Create(w, r));
  }

  @Test
  public void createdWatchIsStoredAndAnswered() {
    var result = create(watch("Acme", 0.5));
    assertTrue(result.reply().isSuccess());
    assertEquals(watch("Acme", 0.5), result.reply().getValue());
    assertTrue(result.event() instanceof WatchEntity.Created);
    var get = entity.<StatusReply<Watch>>runCommand(WatchEntity.Get::new);
    assertEquals("Acme", get.reply().getValue().name());
  }

  @Test
  public void aDuplicateCreateIsRefusedAndPersistsNothing() {
    create(watch("Acme", null));
    var second = create(watch("Other", null));
    assertTrue(second.reply().isError());
    assertTrue(second.hasNoEvents());
    assertEquals("Acme", entity.getState().watch().name());
  }

  @Test
  public void replaceAndDeleteOfAnAbsentWatchAreRefused() {
    var replace = entity.<StatusReply<Watch>>runCommand(r -> new WatchEntity.Replace(watch("X", null), r));
    var delete = entity.<StatusReply<Done>>runCommand(WatchEntity.Delete::new);
    var get = entity.<StatusReply<Watch>>runCommand(WatchEntity.Get::new);
    assertTrue(replace.reply().isError() && delete.reply().isError() && get.reply().isError());
    assertTrue(replace.hasNoEvents() && delete.hasNoEvents());
  }

  @Test
  public void replaceIsAFullReplacement() {
    create(watch("Acme", 0.5));
    var result = entity.<StatusReply<Watch>>runCommand(r -> new WatchEntity.Replace(watch("Renamed", null), r));
    assertTrue(result.event() instanceof WatchEntity.Replaced);
    assertEquals("Renamed", result.reply().getValue().name());
    assertNull("an omitted weakThreshold is gone", result.reply().getValue().weakThreshold());
  }

  @Test
  public void deleteIsAnEventAndTheIdCanBeCreatedAgain() {
    create(watch("Acme", null));
    var delete = entity.<StatusReply<Done>>runCommand(WatchEntity.Delete::new);
    assertTrue(delete.event() instanceof WatchEntity.Deleted);
    assertFalse(entity.getState().exists());
    assertTrue(entity.<StatusReply<Watch>>runCommand(WatchEntity.Get::new).reply().isError());
    assertTrue(create(watch("Again", null)).reply().isSuccess());
  }

  @Test
  public void restartRecoversTheDefinitionFromEvents() {
    create(watch("Acme", 0.5));
    entity.<StatusReply<Watch>>runCommand(r -> new WatchEntity.Replace(watch("Renamed", 0.4), r));
    entity.restart();
    assertEquals(watch("Renamed", 0.4), entity.getState().watch());
  }

  @Test
  public void restartAfterDeleteStaysDeleted() {
    create(watch("Acme", null));
    entity.<StatusReply<Done>>runCommand(WatchEntity.Delete::new);
    entity.restart();
    assertFalse(entity.getState().exists());
  }
}
