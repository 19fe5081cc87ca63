package io.periscope.entity;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Futures wrap the failure that matters; callers decide on the cause. */
public final class Failures {
  private Failures() {}

  public static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /**
   * Whether an entity refused the command (absent, duplicate, busy…), as opposed to a timeout or a
   * crash.
   */
  public static boolean isRefusal(Throwable t) {
    return unwrap(t) instanceof EntityRefusal;
  }

  /** For {@code exceptionally}: the failure, thrown on as it is. */
  public static <T> T rethrow(Throwable t) {
    throw t instanceof RuntimeException r ? r : new CompletionException(t);
  }
}
