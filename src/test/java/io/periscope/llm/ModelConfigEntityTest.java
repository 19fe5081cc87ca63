package io.periscope.llm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;

import io.periscope.testing.EntityTestKits;
import java.math.BigDecimal;
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
          new ModelChoice(
              "openai",
              "https://models.example/v1/",
              "judge",
              new ModelPrice(
                  new BigDecimal("0.15"), new BigDecimal("0.075"), new BigDecimal("0.6"))),
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
    assertEquals(
        new BigDecimal("0.075"), get().configuration().verdicts().price().cachedInputPerMillion());

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

  @Test
  public void aChangeJournaledBeforePricesExistedReadsAsModelsWithoutAPrice() throws Exception {
    var priced = new ModelConfigEntity.Changed(CONFIGURATION, NOON, "root");
    Object read =
        EntityTestKits.roundTrip(
            testKit.system(),
            priced,
            json -> {
              // as written before prices: no price, not even a null one
              String old = json.replaceAll(",\"price\":(\\{[^}]*\\}|null)", "");
              assertFalse(old, old.contains("price"));
              return old;
            });

    var old = (ModelConfigEntity.Changed) read;
    assertNull(old.configuration().verdicts().price());
    assertNull(old.configuration().assistance().price());
    assertEquals(
        new ModelChoice("openai", "https://models.example/v1", "judge"),
        old.configuration().verdicts());
  }
}
