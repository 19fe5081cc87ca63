package io.periscope.source;

import static org.junit.Assert.fail;

import io.periscope.provider.ProviderFailure;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Waiting on a search provider's answer in tests. */
final class SearchTesting {
  private SearchTesting() {}

  static List<Item> results(CompletionStage<List<Item>> stage) throws Exception {
    return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static ProviderFailure failure(CompletionStage<List<Item>> stage) throws Exception {
    try {
      stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ProviderFailure f) return f;
      throw e;
    }
    fail("expected a ProviderFailure");
    return null;
  }
}
