package io.periscope.watch;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.periscope.json.Json;
import io.periscope.testing.RunRecordBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.Test;

public class RecentRunsTest {
  private static RunRecord run(int n) {
    return run("run-" + n);
  }

  private static RunRecord run(String id) {
    return new RunRecordBuilder()
        .runId(id)
        .startedAt(Instant.parse("2026-11-28T09:00:00Z"))
        .outcome(RunRecord.NOTHING_NEW)
        .build();
  }

  /** What a run made of the list before: a new list of it and the newest of the others. */
  private static List<RunRecord> copied(List<RunRecord> runs, RunRecord newest, int bound) {
    List<RunRecord> all = new ArrayList<>();
    all.add(newest);
    runs.stream().limit(bound - 1).forEach(all::add);
    return List.copyOf(all);
  }

  @Test
  public void runsAddedLinearlyOrFromTheSameListKeepWhatTheCopiesKept() {
    Random random = new Random(40);
    for (int bound : new int[] {1, 2, 7, WatchEntity.RECENT_RUNS}) {
      RecentRuns recent = RecentRuns.EMPTY;
      List<RunRecord> expected = List.of();
      for (int n = 0; n < 700; n++) {
        RecentRuns before = recent;
        List<RunRecord> expectedBefore = expected;
        recent = recent.with(run(n), bound);
        expected = copied(expected, run(n), bound);
        if (random.nextInt(5) == 0) {
          // another list from the same one (a run applied twice): both stay as they were made
          RunRecord other = run("other-" + n);
          assertEquals(copied(expectedBefore, other, bound), before.with(other, bound));
          assertEquals(expectedBefore, before);
        }
        if (random.nextInt(9) == 0) {
          int pick = random.nextInt(expected.size());
          String picked = expected.get(pick).runId();
          RunRecord changed = run("changed-" + n);
          recent = recent.replaced(Set.of(picked, "run-of-old"), r -> changed);
          List<RunRecord> edited = new ArrayList<>(expected);
          edited.set(pick, changed);
          expected = List.copyOf(edited);
        }
        assertEquals(expected, recent);
        assertEquals(expected.hashCode(), recent.hashCode());
      }
    }
  }

  @Test
  public void aListIsKeptWhenNothingChangesAndMadeOnceFromAnother() {
    RecentRuns recent = RecentRuns.of(List.of(run(2), run(1)));
    assertSame(recent, RecentRuns.of(recent));
    assertSame(recent, recent.replaced(Set.of("run-of-old"), r -> run(4)));
    assertSame(RecentRuns.EMPTY, RecentRuns.of(List.of()));
    assertEquals(List.of(run(3), run(2), run(1)), recent.with(run(3), 100));
  }

  /** The snapshot's JSON is what it was when the runs were a copied list. */
  @Test
  public void aStateWritesItsRunsAsTheCopiedListWasWrittenAndReadsThemBack() throws Exception {
    WatchEntity.State state = WatchEntity.State.EMPTY;
    List<RunRecord> copies = List.of();
    for (int n = 0; n < 150; n++) {
      state = state.withRun(run(n), List.of(), Map.of(), null);
      copies = copied(copies, run(n), WatchEntity.RECENT_RUNS);
    }
    String json = Json.MAPPER.writeValueAsString(state);
    String runs = Json.MAPPER.writeValueAsString(new ArrayList<>(copies));
    assertEquals(runs, Json.MAPPER.writeValueAsString(state.recentRuns()));
    assertTrue(json, json.contains("\"recentRuns\":" + runs + ","));
    WatchEntity.State read = Json.MAPPER.readValue(json, WatchEntity.State.class);
    assertEquals(state, read);
    assertEquals(json, Json.MAPPER.writeValueAsString(read));
  }
}
