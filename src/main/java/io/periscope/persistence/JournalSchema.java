package io.periscope.persistence;

import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Creates the journal, snapshot and state tables from pekko-persistence-jdbc's own scripts when they are missing,
 * one starting node at a time ({@link SchemaLock}). Journal rows are never deleted: the plugin drops events after a
 * gap.
 */
public final class JournalSchema {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private JournalSchema() {}

  public static void create(ActorSystem<?> system) {
    try {
      SchemaLock.during(system.settings().config(), () ->
          SchemaUtils.createIfNotExists(system).toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating the journal schema", e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create the journal schema: " + e.getMessage(), e);
    }
  }
}
