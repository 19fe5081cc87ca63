package io.periscope.account;

import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the user accounts whose address was never proven once they are older than the operator's
 * UNVERIFIED_ACCOUNT_DAYS, with their data and history: an open registration leaves no account, and
 * no address taken, for ever. Every serving node purges each {@link #EVERY}; an account another
 * node deleted first is skipped.
 */
public final class UnverifiedAccounts {
  private static final Logger log = LoggerFactory.getLogger(UnverifiedAccounts.class);
  public static final Duration EVERY = Duration.ofHours(1);

  private final Accounts accounts;
  private final AccountAdmin admin;
  private final Duration keptFor;
  private final Clock clock;

  public UnverifiedAccounts(Accounts accounts, AccountAdmin admin, Duration keptFor, Clock clock) {
    this.accounts = accounts;
    this.admin = admin;
    this.keptFor = keptFor;
    this.clock = clock;
  }

  /** Deletes every stale unverified account, one at a time; answers their ids. */
  public CompletionStage<List<String>> purge() {
    Instant before = clock.instant().minus(keptFor);
    return accounts
        .accounts()
        .thenCompose(
            all -> {
              List<String> deleted = new ArrayList<>();
              CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
              for (Account account : all) {
                if (!stale(account, before)) continue;
                done =
                    done.thenCompose(
                        previous ->
                            admin
                                .delete(Principal.SERVICE, account.id(), true)
                                .handle(
                                    (view, failure) -> {
                                      if (failure == null) {
                                        deleted.add(account.id());
                                        log.info(
                                            "event=unverified-account-purged account={}",
                                            account.id());
                                      } else if (!(Failures.unwrap(failure) instanceof Refusal))
                                        log.warn(
                                            "event=unverified-account-purge-failed account={}"
                                                + " reason=\"{}\"",
                                            account.id(),
                                            Failures.unwrap(failure).getClass().getSimpleName());
                                      return null;
                                    }));
              }
              return done.thenApply(d -> List.copyOf(deleted));
            });
  }

  private static boolean stale(Account account, Instant before) {
    return account.role() == Role.USER
        && !account.emailVerified()
        && account.createdAt() != null
        && account.createdAt().isBefore(before);
  }
}
