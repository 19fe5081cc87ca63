package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

public class PermitsTest {
  @Test
  public void workPastThePermitsWaitsInArrivalOrder() throws Exception {
    Permits permits = new Permits(2);
    List<CompletableFuture<String>> held = new ArrayList<>();
    List<Integer> started = new ArrayList<>();
    List<CompletionStage<String>> answers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int n = i;
      CompletableFuture<String> work = new CompletableFuture<>();
      held.add(work);
      answers.add(
          permits.with(
              () -> {
                synchronized (started) {
                  started.add(n);
                }
                return work;
              }));
    }
    assertEquals(List.of(0, 1), started);
    assertEquals(2, permits.taken());
    held.get(1).complete("one");
    assertEquals(List.of(0, 1, 2), started);
    held.get(0).completeExceptionally(new IllegalStateException("failed work frees its permit"));
    assertEquals(List.of(0, 1, 2, 3), started);
    held.get(2).complete("two");
    held.get(3).complete("three");
    held.get(4).complete("four");
    assertEquals("four", answers.get(4).toCompletableFuture().get(1, TimeUnit.SECONDS));
    assertTrue(answers.get(0).toCompletableFuture().isCompletedExceptionally());
    assertEquals(0, permits.taken());
  }

  @Test
  public void workThatThrowsFreesItsPermit() {
    Permits permits = new Permits(1);
    CompletionStage<Object> failed =
        permits.with(
            () -> {
              throw new IllegalArgumentException("refused at once");
            });
    assertTrue(failed.toCompletableFuture().isCompletedExceptionally());
    assertEquals(0, permits.taken());
  }

  @Test
  public void manyWaitersThatFinishAtOnceDoNotGrowTheStack() throws Exception {
    Permits permits = new Permits(1);
    CompletableFuture<String> first = new CompletableFuture<>();
    permits.with(() -> first);
    List<CompletionStage<String>> waiting = new ArrayList<>();
    for (int i = 0; i < 100_000; i++)
      waiting.add(permits.with(() -> CompletableFuture.completedFuture("done")));
    first.complete("go"); // hands over 100,000 times on this thread
    for (CompletionStage<String> w : waiting)
      assertFalse(w.toCompletableFuture().isCompletedExceptionally());
    assertEquals("done", waiting.get(99_999).toCompletableFuture().get(1, TimeUnit.SECONDS));
    assertEquals(0, permits.taken());
  }
}
