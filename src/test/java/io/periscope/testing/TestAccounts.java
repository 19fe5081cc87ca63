package io.periscope.testing;

import io.periscope.account.AccountEntity;
import io.periscope.watch.WatchEntity;
import org.apache.pekko.actor.typed.Behavior;

/** The account entities the entity tests spawn. */
public final class TestAccounts {
  private TestAccounts() {}

  /** For owners whose watches are never asked whether they are gone: asking fails the test. */
  public static final WatchEntity.Refs NO_WATCHES =
      (owner, watchId) -> {
        throw new AssertionError("no watch is asked here");
      };

  /** The account entity {@code id}, whose watches are never asked for ({@link #NO_WATCHES}). */
  public static Behavior<AccountEntity.Command> idle(String id) {
    return AccountEntity.create(id, NO_WATCHES);
  }
}
