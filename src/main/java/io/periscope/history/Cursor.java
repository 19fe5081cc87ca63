package io.periscope.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.periscope.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * Where a replay stopped, so that the next one shows every run it did not, once: an export run
 * every few minutes with {@code --after} misses and doubles nothing.
 *
 * <p>A run's place is its start ({@link #ORDER}: start time, then watch, then run id) and the
 * journal position of its record. Runs print in start order, but a long run is recorded after
 * shorter ones that started later, so a place in start order alone would lose it. A cursor is
 * therefore a short staircase of steps {@code (upTo, last)}: every selected run recorded at a
 * position up to {@code upTo} and placed at or before {@code last} (null: anywhere) was shown. A
 * replay shows the runs no step covers; after each run it shows, the steps it passed are replaced
 * by one, and a replay read to its end leaves one step that covers everything it read.
 */
public final class Cursor {
  /** The order runs print in, oldest first. */
  public static final Comparator<RunHistory.Run> ORDER =
      Comparator.<RunHistory.Run, Instant>comparing(r -> r.record().startedAt())
          .thenComparing(RunHistory.Run::entityId)
          .thenComparing(r -> r.record().runId());

  /** Nothing shown yet. */
  public static final Cursor START = new Cursor(List.of());

  /** One step: the runs up to {@code upTo} placed at or before {@code last} (null: all). */
  private record Step(long upTo, Place last) {
    boolean covers(RunHistory.Run run) {
      return run.position() <= upTo && (last == null || last.compareTo(Place.of(run)) >= 0);
    }

    /** Whether this step holds every run {@code other} does. */
    boolean contains(Step other) {
      return upTo >= other.upTo
          && (last == null || (other.last != null && last.compareTo(other.last) >= 0));
    }
  }

  /** A run's place in {@link #ORDER}. */
  private record Place(Instant startedAt, String watch, String runId) implements Comparable<Place> {
    static Place of(RunHistory.Run run) {
      return new Place(run.record().startedAt(), run.entityId(), run.record().runId());
    }

    @Override
    public int compareTo(Place o) {
      int c = startedAt.compareTo(o.startedAt);
      if (c == 0) c = watch.compareTo(o.watch);
      return c != 0 ? c : runId.compareTo(o.runId);
    }
  }

  private final List<Step> steps;

  private Cursor(List<Step> steps) {
    this.steps = List.copyOf(steps);
  }

  /** Everything up to the journal position {@code upTo} was shown. */
  public static Cursor through(long upTo) {
    return new Cursor(List.of(new Step(upTo, null)));
  }

  /** Whether the run was shown before this cursor. */
  public boolean covers(RunHistory.Run run) {
    for (Step s : steps) if (s.covers(run)) return true;
    return false;
  }

  /**
   * The cursor after showing {@code run}, read from a journal whose position was {@code upTo}, in
   * start order after every run this cursor does not cover and that comes before it.
   */
  public Cursor after(RunHistory.Run run, long upTo) {
    Step shown = new Step(upTo, Place.of(run));
    List<Step> kept = new ArrayList<>();
    for (Step s : steps) if (!shown.contains(s)) kept.add(s);
    kept.removeIf(s -> kept.stream().anyMatch(o -> o != s && o.contains(s)));
    if (kept.stream().noneMatch(s -> s.contains(shown))) kept.add(shown);
    kept.sort(Comparator.comparingLong(Step::upTo));
    return new Cursor(kept);
  }

  /**
   * The lowest journal position a step holds: every run not covered was recorded after it or placed
   * after {@link #startedSince()}. Null for {@link #START}.
   */
  public Long lowestUpTo() {
    return steps.isEmpty() ? null : steps.get(0).upTo();
  }

  /**
   * The start of the last run the lowest step holds (null: it holds all its runs), the time from
   * which runs it does not cover start.
   */
  public Instant startedSince() {
    return steps.isEmpty() || steps.get(0).last() == null ? null : steps.get(0).last().startedAt();
  }

  /** The cursor as printed: URL-safe Base64 of a small JSON array. */
  public String encode() {
    ArrayNode array = Json.MAPPER.createArrayNode();
    for (Step s : steps) {
      ArrayNode step = array.addArray().add(s.upTo());
      if (s.last() != null)
        step.add(s.last().startedAt().toString()).add(s.last().watch()).add(s.last().runId());
    }
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(array.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A cursor a replay printed.
   *
   * @throws IllegalArgumentException when {@code text} is none
   */
  public static Cursor decode(String text) {
    try {
      JsonNode array = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(text));
      if (array == null || !array.isArray() || array.isEmpty())
        throw new IllegalArgumentException();
      List<Step> steps = new ArrayList<>();
      for (JsonNode step : array) {
        if (!step.isArray() || !step.get(0).canConvertToLong())
          throw new IllegalArgumentException();
        Place last = null;
        if (step.size() == 4)
          last =
              new Place(
                  Instant.parse(step.get(1).asText()), step.get(2).asText(), step.get(3).asText());
        else if (step.size() != 1) throw new IllegalArgumentException();
        steps.add(new Step(step.get(0).asLong(), last));
      }
      steps.sort(Comparator.comparingLong(Step::upTo));
      return new Cursor(steps);
    } catch (RuntimeException | java.io.IOException e) {
      throw new IllegalArgumentException("'" + text + "' is no cursor a history printed");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cursor c && c.steps.equals(steps);
  }

  @Override
  public int hashCode() {
    return steps.hashCode();
  }

  @Override
  public String toString() {
    return encode();
  }
}
