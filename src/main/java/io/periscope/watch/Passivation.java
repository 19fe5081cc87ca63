package io.periscope.watch;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * How a watch asks whatever hosts it to stop it, with its next message starting it again
 * (sharding's Passivate).
 */
@FunctionalInterface
public interface Passivation {
  void passivate(ActorRef<WatchEntity.Command> self);

  /** Where nothing would start the entity again (a plain actor), it stays. */
  Passivation NEVER = self -> {};
}
