package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.periscope.json.Json;
import io.periscope.testing.FakePipeline;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.Test;

public class SeenKeysTest {
  /** What a run marking keys seen made of the list before: a set of them all, copied back. */
  private static List<String> copied(List<String> seen, List<String> more, int bound) {
    LinkedHashSet<String> ids = new LinkedHashSet<>(seen);
    ids.addAll(more);
    List<String> all = new ArrayList<>(ids);
    return all.size() > bound ? all.subList(all.size() - bound, all.size()) : all;
  }

  @Test
  public void runsOfKeysKeepTheOrderTheBoundAndTheLookupsOfTheWholeCopy() {
    Random random = new Random(40);
    for (int bound : new int[] {1, 7, 150, 5000}) {
      SeenKeys seen = SeenKeys.EMPTY;
      List<String> expected = List.of();
      for (int run = 0; run < 1500; run++) {
        List<String> more = new ArrayList<>();
        int keys = random.nextInt(10) == 0 ? random.nextInt(300) : random.nextInt(4);
        for (int k = 0; k < keys; k++) more.add("k" + random.nextInt(run * 3 + 10));
        seen = seen.with(more, bound);
        expected = copied(expected, more, bound);
        assertEquals(expected, seen);
        Set<String> asSet = seen.asSet();
        assertEquals(new HashSet<>(expected), asSet);
        for (int probe = 0; probe < 5; probe++) {
          String key = "k" + random.nextInt(run * 3 + 10);
          assertEquals(expected.contains(key), asSet.contains(key));
          assertEquals(expected.indexOf(key), seen.indexOf(key));
        }
      }
    }
  }

  @Test
  public void aRunOfNothingNewKeepsTheSameList() {
    SeenKeys seen = SeenKeys.of(List.of("a", "b"));
    assertSame(seen, seen.with(List.of("b", "a"), 10));
    assertSame(seen, seen.with(List.of(), 10));
    assertSame(seen, SeenKeys.of(seen));
    assertSame(seen.asSet(), SeenKeys.frozen(seen.asSet()));
    assertFalse(seen.contains(null));
  }

  @Test
  public void aStateWritesItsSeenKeysAsTheListAndReadsThemBack() throws Exception {
    WatchEntity.State state =
        WatchEntity.State.EMPTY.withRun(
            FakePipeline.record(RunRecord.NO_MATCH), List.of("a", "b", "a", "c"), Map.of(), null);
    String json = Json.MAPPER.writeValueAsString(state.seen());
    assertEquals("[\"a\",\"b\",\"c\"]", json);
    assertTrue(
        json, Json.MAPPER.writeValueAsString(state).contains("\"seen\":[\"a\",\"b\",\"c\"]"));
    WatchEntity.State read =
        Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(state), WatchEntity.State.class);
    assertEquals(state.seen(), read.seen());
    assertTrue(read.memory(java.time.Instant.EPOCH).seen().contains("b"));
  }
}
