package io.periscope.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Failed password sign-ins per e-mail address, so that guessing one account's password from many
 * addresses (which the per-client window cannot see) slows down: after {@link #FREE_FAILURES}
 * failures in a row, each sign-in to that address waits {@link #FIRST_WAIT}, doubling with each
 * further failure up to {@link #LONGEST_WAIT}; a success clears the count, and a quiet day forgets
 * it. Addresses with and without an account are treated alike, so the answer tells nothing about
 * which exist. Kept in this node's memory, bounded to {@link #TRACKED} addresses (the least
 * recently failing forgotten first); on a cluster each node counts its own.
 */
public final class SignInBackoff {
  static final int FREE_FAILURES = 5;
  static final Duration FIRST_WAIT = Duration.ofMinutes(1);
  static final Duration LONGEST_WAIT = Duration.ofHours(1);
  static final Duration FORGET_AFTER = Duration.ofDays(1);
  static final int TRACKED = 100_000;

  private record Failures(int count, Instant last) {}

  private final Clock clock;
  private final Map<String, Failures> failures =
      new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
          return size() > TRACKED;
        }
      };

  public SignInBackoff(Clock clock) {
    this.clock = clock;
  }

  /** How long a sign-in to {@code email} must still wait; zero when it may go ahead. */
  public synchronized Duration wait(String email) {
    Failures f = current(EmailEntity.normalize(email));
    if (f == null || f.count() < FREE_FAILURES) return Duration.ZERO;
    Duration left = Duration.between(clock.instant(), f.last().plus(waitAfter(f.count())));
    return left.isNegative() ? Duration.ZERO : left;
  }

  public synchronized void failed(String email) {
    String key = EmailEntity.normalize(email);
    Failures f = current(key);
    failures.put(key, new Failures(f == null ? 1 : f.count() + 1, clock.instant()));
  }

  public synchronized void succeeded(String email) {
    failures.remove(EmailEntity.normalize(email));
  }

  /** The wait after {@code count} failures in a row: none for the free ones, then doubling. */
  static Duration waitAfter(int count) {
    if (count < FREE_FAILURES) return Duration.ZERO;
    int doublings = Math.min(count - FREE_FAILURES, 16);
    Duration wait = FIRST_WAIT.multipliedBy(1L << doublings);
    return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
  }

  private Failures current(String key) {
    Failures f = failures.get(key);
    if (f != null && f.last().plus(FORGET_AFTER).isBefore(clock.instant())) {
      failures.remove(key);
      return null;
    }
    return f;
  }
}
