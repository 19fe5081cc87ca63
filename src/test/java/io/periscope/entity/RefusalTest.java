package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.fail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.Test;

/** An entity's refusal takes the kind its caller names; every other failure passes unchanged. */
public class RefusalTest {
  @Test
  public void anEntityRefusalBecomesTheNamedKindWithTheNamedMessage() {
    Throwable thrown = failure(new EntityRefusal("no such watch"), Refusal.Kind.NOT_FOUND, "gone");
    Refusal refusal = (Refusal) thrown;
    assertEquals(Refusal.Kind.NOT_FOUND, refusal.kind());
    assertEquals("gone", refusal.getMessage());
  }

  @Test
  public void withoutAMessageTheEntitysOwnWordsAreKept() {
    Throwable thrown = failure(new EntityRefusal("the id is taken"), Refusal.Kind.CONFLICT, null);
    assertEquals(Refusal.Kind.CONFLICT, ((Refusal) thrown).kind());
    assertEquals("the id is taken", thrown.getMessage());
  }

  @Test
  public void anyOtherFailurePassesAsItIs() {
    TimeoutException timeout = new TimeoutException("ask timed out");
    Throwable thrown = failure(timeout, Refusal.Kind.NOT_FOUND, "gone");
    assertSame(timeout, Failures.unwrap(thrown));
  }

  /** What a stage failed with {@code cause} fails with after {@code Refusal.as}. */
  private static Throwable failure(Throwable cause, Refusal.Kind kind, String message) {
    CompletableFuture<String> failed =
        CompletableFuture.<String>failedFuture(cause)
            .exceptionally(message == null ? Refusal.as(kind) : Refusal.as(kind, message));
    try {
      failed.join();
    } catch (CompletionException e) {
      return e.getCause();
    }
    fail("the stage did not fail");
    return null;
  }
}
