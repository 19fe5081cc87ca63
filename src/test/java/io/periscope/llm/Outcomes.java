package io.periscope.llm;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.periscope.provider.ProviderFailure;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Waiting on a client's answer, and on the failure it ends with, unwrapped. */
final class Outcomes {
  private Outcomes() {}

  static <T> T value(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static Throwable failure(CompletionStage<?> stage) throws Exception {
    try {
      Object value = stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
      fail("expected a failure, got " + value);
      return null;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while (cause instanceof java.util.concurrent.CompletionException
          && cause.getCause() != null) {
        cause = cause.getCause();
      }
      return cause;
    }
  }

  static ProviderFailure providerFailure(CompletionStage<?> stage, String apiKey) throws Exception {
    Throwable cause = failure(stage);
    assertTrue("expected a ProviderFailure, got " + cause, cause instanceof ProviderFailure);
    assertTrue("the key leaked into: " + cause.getMessage(), !cause.getMessage().contains(apiKey));
    return (ProviderFailure) cause;
  }
}
