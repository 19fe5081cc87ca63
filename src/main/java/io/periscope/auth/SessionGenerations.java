package io.periscope.auth;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.owner.Account;
import io.periscope.owner.OwnerEntity;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ends sign-ins without a revocation list: an account's tokens carry its session generation, a
 * password reset moves the generation on, and a token of an older generation is refused. Asking the
 * owner entity on every request would cost an ask per call, so each node keeps what it read for
 * {@link #FRESH_FOR}: a reset ends earlier sign-ins at once on the node that made it, and within
 * that time on every other node.
 */
public final class SessionGenerations {
  public static final Duration FRESH_FOR = Duration.ofSeconds(30);

  /** Past this many remembered accounts the stale ones are dropped. */
  private static final int PRUNE_ABOVE = 10_000;

  private record Known(long generation, Instant readAt) {}

  private final OwnerEntity.Refs owners;
  private final Asks asks;
  private final Clock clock;
  private final Map<String, Known> known = new ConcurrentHashMap<>();

  public SessionGenerations(OwnerEntity.Refs owners, Asks asks, Clock clock) {
    this.owners = owners;
    this.asks = asks;
    this.clock = clock;
  }

  /** Whether a token of {@code generation} still signs {@code accountId} in. */
  public CompletionStage<Boolean> isCurrent(String accountId, long generation) {
    Instant now = clock.instant();
    Known cached = known.get(accountId);
    if (cached != null && cached.readAt().plus(FRESH_FOR).isAfter(now)) {
      return CompletableFuture.completedFuture(generation >= cached.generation());
    }
    return asks.<OwnerEntity.Command, Account>ask(
            owners.owner(accountId), OwnerEntity.GetAccount::new)
        .handle(
            (account, failure) -> {
              // A subject without an account (the command line's own tokens) has nothing to end.
              if (failure != null && !Failures.isRefusal(failure))
                throw new CompletionException(failure);
              long current = account == null ? 0 : account.sessionGeneration();
              remember(accountId, current, now);
              return generation >= current;
            });
  }

  /** What this node just changed, known at once. */
  public void remember(Account account) {
    remember(account.id(), account.sessionGeneration(), clock.instant());
  }

  private void remember(String accountId, long generation, Instant now) {
    if (known.size() > PRUNE_ABOVE)
      known.values().removeIf(k -> !k.readAt().plus(FRESH_FOR).isAfter(now));
    // Generations only grow: a read that started before a reset must not bring the older one back.
    known.merge(
        accountId,
        new Known(generation, now),
        (old, read) -> new Known(Math.max(old.generation(), read.generation()), read.readAt()));
  }
}
