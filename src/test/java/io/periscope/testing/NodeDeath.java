package io.periscope.testing;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Sharding's routing across the death of an entity's node, in one JVM: the first message reaches
 * the incarnation on the node that then died, which nothing stops (its end would run on that node),
 * and every later one reaches the incarnation started from the journal on a survivor.
 */
public final class NodeDeath {
  private NodeDeath() {}

  /** A recipient that routes as sharding does to an entity whose node died after one message. */
  public static <T> Behavior<T> routing(ActorRef<T> onTheDeadNode, ActorRef<T> onASurvivor) {
    return Behaviors.receiveMessage(
        first -> {
          onTheDeadNode.tell(first);
          return Behaviors.receiveMessage(
              later -> {
                onASurvivor.tell(later);
                return Behaviors.same();
              });
        });
  }
}
