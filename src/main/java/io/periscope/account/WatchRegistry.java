package io.periscope.account;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The id of every watch an owner holds, in creation order, as the owner's state holds it: testing
 * an id and registering new ones cost the same for the ten-thousandth watch as for the first (a
 * list copied per registration made a burst of creates quadratic). Registering appends and a state
 * is only ever extended by its successor, so successive registries share one append-only buffer and
 * each knows its own length; extending one that is not the newest copies its prefix instead.
 * Removing an id (a deleted watch, far rarer than a create) copies the rest. Only the owner
 * entity's actor touches a registry; what leaves it is a copy. Serialized as the plain list of ids.
 */
public final class WatchRegistry {
  static final WatchRegistry EMPTY = new WatchRegistry(new Buffer(), 0);

  /** Ids in creation order, and each id's position. */
  private static final class Buffer {
    final List<String> ids = new ArrayList<>();
    final Map<String, Integer> positions = new HashMap<>();

    void append(String id) {
      if (positions.putIfAbsent(id, ids.size()) == null) ids.add(id);
    }
  }

  private final Buffer buffer;
  private final int size;

  private WatchRegistry(Buffer buffer, int size) {
    this.buffer = buffer;
    this.size = size;
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static WatchRegistry of(List<String> ids) {
    return EMPTY.with(ids);
  }

  public boolean contains(String id) {
    Integer position = buffer.positions.get(id);
    return position != null && position < size;
  }

  /** This registry and the ids it does not hold yet, in their order. */
  public WatchRegistry with(List<String> added) {
    Buffer target = buffer;
    if (buffer.ids.size() != size || this == EMPTY) {
      target = new Buffer();
      buffer.ids.subList(0, size).forEach(target::append);
    }
    added.forEach(target::append);
    return new WatchRegistry(target, target.ids.size());
  }

  /** This registry without {@code removed}; itself when it does not hold it. */
  public WatchRegistry without(String removed) {
    if (!contains(removed)) return this;
    Buffer target = new Buffer();
    buffer.ids.subList(0, size).stream().filter(id -> !id.equals(removed)).forEach(target::append);
    return new WatchRegistry(target, target.ids.size());
  }

  /** How many ids it holds. */
  public int size() {
    return size;
  }

  /** A copy of the ids, oldest first. */
  @JsonValue
  public List<String> ids() {
    return List.copyOf(buffer.ids.subList(0, size));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WatchRegistry that && ids().equals(that.ids());
  }

  @Override
  public int hashCode() {
    return ids().hashCode();
  }

  @Override
  public String toString() {
    return ids().toString();
  }
}
