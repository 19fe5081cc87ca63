package io.periscope.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** Waiting runs in turn per owner, each owner's own in arrival order. */
public class FairQueueTest {
  @Test
  public void ownersTakeTurnsAndEachOwnersRunsKeepTheirOrder() {
    FairQueue<String> queue = new FairQueue<>();
    for (int i = 1; i <= 300; i++) queue.add("alice", "a" + i);
    queue.add("bob", "b1");
    queue.add("bob", "b2");
    queue.add("carol", "c1");
    assertEquals(303, queue.size());
    List<String> first = new ArrayList<>();
    for (int i = 0; i < 7; i++) first.add(queue.poll());
    assertEquals(List.of("a1", "b1", "c1", "a2", "b2", "a3", "a4"), first);
    queue.add("bob", "b3");
    assertEquals("bob, back in the queue, waits behind alice only", "a5", queue.poll());
    assertEquals("b3", queue.poll());
    assertEquals(295, queue.size());
  }

  @Test
  public void anEmptyQueueGivesNothing() {
    FairQueue<String> queue = new FairQueue<>();
    assertNull(queue.poll());
    queue.add("alice", "a1");
    assertEquals("a1", queue.poll());
    assertNull(queue.poll());
    assertEquals(0, queue.size());
  }
}
