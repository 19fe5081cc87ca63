package io.periscope.testing;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/** Waiting for what the code under test answers later. */
public final class Waits {
  private Waits() {}

  /** What {@code stage} completes with, within 40 seconds. */
  public static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(40, TimeUnit.SECONDS);
  }
}
