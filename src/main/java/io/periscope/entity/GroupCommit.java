package io.periscope.entity;

import java.util.ArrayList;
import java.util.List;

/**
 * Commands whose events one persist writes together: an entity takes each in (and answers none
 * yet), and the first one taken in sends the entity a message to write them all. That message
 * queues behind every command already waiting, and those that arrive while a write is in flight
 * wait in the entity's stash for it, so each write takes all of them: a burst of commands is a few
 * commits, not one each, and none waits longer than the write before it. The commands are answered
 * once their write is in the journal, as a persist of their own would answer them.
 *
 * <p>In memory only: an entity that stops before the write loses the commands taken in, which were
 * not answered (their askers time out, as when a persist fails).
 *
 * @param <T> what is kept of a command until its write
 */
public final class GroupCommit<T> {
  private final List<T> taken = new ArrayList<>();
  private final Runnable writeSoon;

  /**
   * @param writeSoon sends the entity the message on which it writes what was taken in
   */
  public GroupCommit(Runnable writeSoon) {
    this.writeSoon = writeSoon;
  }

  /** Takes {@code command} in; the first since the last write asks for the next one. */
  public void add(T command) {
    if (taken.isEmpty()) writeSoon.run();
    taken.add(command);
  }

  /** What was taken in and not written yet, oldest first. */
  public List<T> pending() {
    return List.copyOf(taken);
  }

  /** What was taken in, oldest first, to be written now: none is pending after. */
  public List<T> take() {
    List<T> all = List.copyOf(taken);
    taken.clear();
    return all;
  }
}
