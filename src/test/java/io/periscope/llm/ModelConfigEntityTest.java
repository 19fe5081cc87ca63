package io.periscope.llm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.periscope.testing.EntityTestKits;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.ClassRule;
import org.junit.Test;

public class ModelConfigEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final Instant NOON = Instant.parse("2026-11-22T12:00:00Z");
  private static final ModelConfiguration CONFIGURATION =
      new ModelConfiguration(
          new ModelChoice("openai", "https://models.example/v1/", "judge"),
          new ModelChoice("anthropic", "https://api.anthropic.com", "helper"));

  private final EventSourcedBehaviorTestKit<
          ModelConfigEntity.Command, ModelConfigEntity.Event, ModelConfigEntity.State>
      entity =
          EventSourcedBehaviorTestKit.create(
              testKit.system(), ModelConfigEntity.create(ModelConfigEntity.ID));

  private ModelConfigEntity.State get() {
    return entity
        .<StatusReply<ModelConfigEntity.State>>runCommand(ModelConfigEntity.Get::new)
        .reply()
        .getValue();
  }

  @Test
  public void noConfigurationUntilAnAdminSetsOne() {
    assertEquals(new ModelConfigEntity.State(null, null, null), get());
  }

  @Test
  public void aChangeIsKeptAcrossRestartsUntilTheNextChangeOrAReset() {
    var changed =
        entity.<StatusReply<ModelConfigEntity.State>>runCommand(
            r -> new ModelConfigEntity.Change(CONFIGURATION, NOON, "root", r));
    assertEquals(
        List.of(new ModelConfigEntity.Changed(CONFIGURATION, NOON, "root")), changed.events());
    assertEquals(
        "https://models.example/v1",
        changed.reply().getValue().configuration().verdicts().baseUrl());

    entity.restart();
    assertEquals(new ModelConfigEntity.State(CONFIGURATION, NOON, "root"), get());

    ModelConfiguration next =
        ModelConfiguration.both(new ModelChoice("openai", "http://127.0.0.1:11434/v1", "llama3"));
    entity.<StatusReply<ModelConfigEntity.State>>runCommand(
        r -> new ModelConfigEntity.Change(next, NOON.plusSeconds(60), "ops", r));
    entity.restart();
    assertEquals(next, get().configuration());

    entity.<StatusReply<ModelConfigEntity.State>>runCommand(
        r -> new ModelConfigEntity.Reset(NOON.plusSeconds(120), "root", r));
    entity.restart();
    assertNull(get().configuration());
  }
}
