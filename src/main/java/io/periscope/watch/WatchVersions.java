package io.periscope.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.entity.JsonSerializable;
import io.periscope.json.Json;
import io.periscope.watch.WatchEntity.Created;
import io.periscope.watch.WatchEntity.Deleted;
import io.periscope.watch.WatchEntity.Event;
import io.periscope.watch.WatchEntity.Replaced;
import io.periscope.watch.WatchEntity.State;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The history of a watch's definition, as pure functions: each create, replace, delete and restore
 * of the watch is a version ({@link WatchVersion}), kept in the watch's state (and so in its
 * snapshots) apart from its runs, so that versions outlive the retention of runs and the watch's
 * delete. The journal's events are the same changes: {@code history --changes} reads them there.
 */
public final class WatchVersions {
  private WatchVersions() {}

  /**
   * Versions a watch keeps, the newest: a definition changes rarely, and each version holds a whole
   * definition in the live entity's memory.
   */
  public static final int KEPT = 50;

  public static final String CREATED = "created";
  public static final String REPLACED = "replaced";
  public static final String ENABLED = "enabled";
  public static final String DISABLED = "disabled";
  public static final String DELETED = "deleted";
  public static final String RESTORED = "restored";

  /** The answer to {@link WatchEntity.GetVersions}: the kept versions, oldest first. */
  public record Kept(List<WatchVersion> versions) implements JsonSerializable {}

  /** Whether {@code event} changes the definition (and so makes a version). */
  public static boolean isChange(Object event) {
    return event instanceof Created || event instanceof Replaced || event instanceof Deleted;
  }

  /**
   * The version {@code event} makes of a definition that was {@code before} (null: none or
   * deleted), numbered {@code number}.
   */
  public static WatchVersion of(Event event, Watch before, int number) {
    if (event instanceof Created e)
      return new WatchVersion(
          number,
          e.at(),
          e.actor(),
          e.restoredFrom() != null ? RESTORED : CREATED,
          changed(before, e.watch()),
          e.watch(),
          e.restoredFrom());
    if (event instanceof Replaced e) {
      List<String> changed = changed(before, e.watch());
      String change =
          e.restoredFrom() != null
              ? RESTORED
              : changed.equals(List.of("enabled"))
                  ? (e.watch().enabled() ? ENABLED : DISABLED)
                  : REPLACED;
      return new WatchVersion(
          number, e.at(), e.actor(), change, changed, e.watch(), e.restoredFrom());
    }
    if (event instanceof Deleted e)
      return new WatchVersion(number, e.at(), e.actor(), DELETED, List.of(), null, null);
    throw new IllegalArgumentException("no change of definition: " + event.getClass().getName());
  }

  /** {@code versions} (oldest first) with the one {@code event} makes, the newest {@link #KEPT}. */
  static List<WatchVersion> after(List<WatchVersion> versions, Event event, Watch before) {
    int number = versions.isEmpty() ? 1 : versions.get(versions.size() - 1).version() + 1;
    List<WatchVersion> all = new ArrayList<>(versions);
    all.add(of(event, before, number));
    return all.size() > KEPT ? all.subList(all.size() - KEPT, all.size()) : all;
  }

  /** {@code state} with the version {@code change} makes of its definition. */
  static State recorded(State state, Event change) {
    return new State(
        state.watch(),
        state.everCreated(),
        state.seen(),
        state.recentRuns(),
        state.nextFireAt(),
        state.delivering(),
        state.baselines(),
        state.createdAt(),
        state.outbox(),
        state.held(),
        state.failing(),
        state.pages(),
        after(state.versions(), change, state.watch()));
  }

  /** Version {@code number} among those kept. */
  public static Optional<WatchVersion> find(List<WatchVersion> versions, int number) {
    return versions.stream().filter(v -> v.version() == number).findFirst();
  }

  /** The kept version before {@code number}, if any. */
  public static Optional<WatchVersion> before(List<WatchVersion> versions, int number) {
    return versions.stream().filter(v -> v.version() == number - 1).findFirst();
  }

  /** The definition's fields (as the interface names them) whose values differ. */
  public static List<String> changed(Watch before, Watch after) {
    List<String> out = new ArrayList<>();
    for (Difference d : differences(before, after)) out.add(d.field());
    return out;
  }

  /**
   * One field that differs between two definitions: its value {@code before} and {@code after}
   * (JSON null where a definition has none or the field is unset).
   */
  public record Difference(String field, JsonNode before, JsonNode after) {}

  /** The fields that differ, in the definition's order; a missing definition has none set. */
  public static List<Difference> differences(Watch before, Watch after) {
    ObjectNode a =
        before == null ? Json.MAPPER.createObjectNode() : Json.MAPPER.valueToTree(before);
    ObjectNode b = after == null ? Json.MAPPER.createObjectNode() : Json.MAPPER.valueToTree(after);
    Set<String> fields = new LinkedHashSet<>();
    for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) fields.add(it.next());
    for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) fields.add(it.next());
    List<Difference> out = new ArrayList<>();
    for (String field : fields) {
      JsonNode x = a.path(field).isMissingNode() ? NullNode.getInstance() : a.get(field);
      JsonNode y = b.path(field).isMissingNode() ? NullNode.getInstance() : b.get(field);
      if (!x.equals(y)) out.add(new Difference(field, x, y));
    }
    return out;
  }
}
