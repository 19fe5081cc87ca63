package io.periscope.watch;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.projection.HandlerRecoveryStrategy;
import org.apache.pekko.projection.ProjectionId;
import org.apache.pekko.projection.StatusObserver;

/**
 * Whether the wake-up projection is failing on this node: from a failure until it has started again
 * (its behavior restarts it with backoff) or handled an envelope. A node that does not run the
 * projection (it runs on one node of a cluster) is never failing.
 */
final class ProjectionHealth<E> extends StatusObserver<E> {
  private final AtomicBoolean failing = new AtomicBoolean();

  boolean healthy() {
    return !failing.get();
  }

  @Override
  public void started(ProjectionId id) {
    failing.set(false);
  }

  @Override
  public void failed(ProjectionId id, Throwable cause) {
    failing.set(true);
  }

  @Override
  public void stopped(ProjectionId id) {}

  @Override
  public void beforeProcess(ProjectionId id, E envelope) {}

  @Override
  public void afterProcess(ProjectionId id, E envelope) {
    failing.set(false);
  }

  @Override
  public void offsetProgress(ProjectionId id, E envelope) {}

  @Override
  public void error(
      ProjectionId id, E envelope, Throwable cause, HandlerRecoveryStrategy recovery) {}
}
