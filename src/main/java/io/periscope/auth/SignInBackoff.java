package io.periscope.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Failed password sign-ins, so that guessing one account's password slows down without letting
 * anyone lock its owner out. Failures are counted per e-mail address and client network (IPv4 /24,
 * IPv6 /64): after {@link #FREE_FAILURES} in a row from one network, each sign-in to that address
 * from it waits {@link #FIRST_WAIT}, doubling with each further failure up to {@link
 * #LONGEST_WAIT}. They are also counted per address alone, which catches guessing spread over many
 * networks, with a slower start: {@link #ADDRESS_FREE_FAILURES} free. The caller lets the right
 * password through from a network that signed in to the address before, whatever these say ({@code
 * AuthRoutes}), so a stranger's failures never keep the owner out of their usual network.
 *
 * <p>A success clears its network's count (not the address's: the failures elsewhere were still
 * made), and a quiet day forgets any count. Addresses with and without an account are treated
 * alike, so the answer tells nothing about which exist. Kept in this node's memory, bounded to
 * {@link #TRACKED} counts (the least recently failing forgotten first); on a cluster each node
 * counts its own.
 */
public final class SignInBackoff {
  static final int FREE_FAILURES = 5;
  static final int ADDRESS_FREE_FAILURES = 20;
  static final Duration FIRST_WAIT = Duration.ofMinutes(1);
  static final Duration LONGEST_WAIT = Duration.ofHours(1);
  static final Duration FORGET_AFTER = Duration.ofDays(1);
  static final int TRACKED = 100_000;

  /** What a count is of: an address from one network, or ({@code network} null) the address. */
  private record Key(String email, String network) {}

  private record Failures(int count, Instant last) {}

  private final Clock clock;
  private final Map<Key, Failures> failures =
      new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Failures> eldest) {
          return size() > TRACKED;
        }
      };

  public SignInBackoff(Clock clock) {
    this.clock = clock;
  }

  /**
   * How long a sign-in to {@code email} from {@code network} must still wait; zero when it may go
   * ahead.
   */
  public synchronized Duration wait(String email, String network) {
    String address = EmailEntity.normalize(email);
    Duration fromNetwork = left(new Key(address, network), FREE_FAILURES);
    Duration anywhere = left(new Key(address, null), ADDRESS_FREE_FAILURES);
    return fromNetwork.compareTo(anywhere) >= 0 ? fromNetwork : anywhere;
  }

  public synchronized void failed(String email, String network) {
    String address = EmailEntity.normalize(email);
    for (Key key : new Key[] {new Key(address, network), new Key(address, null)}) {
      Failures f = current(key);
      failures.put(key, new Failures(f == null ? 1 : f.count() + 1, clock.instant()));
    }
  }

  public synchronized void succeeded(String email, String network) {
    failures.remove(new Key(EmailEntity.normalize(email), network));
  }

  /**
   * The wait after {@code count} failures in a row, {@code free} of them free: none for those, then
   * doubling.
   */
  static Duration waitAfter(int count, int free) {
    if (count < free) return Duration.ZERO;
    int doublings = Math.min(count - free, 16);
    Duration wait = FIRST_WAIT.multipliedBy(1L << doublings);
    return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
  }

  private Duration left(Key key, int free) {
    Failures f = current(key);
    if (f == null || f.count() < free) return Duration.ZERO;
    Duration left = Duration.between(clock.instant(), f.last().plus(waitAfter(f.count(), free)));
    return left.isNegative() ? Duration.ZERO : left;
  }

  private Failures current(Key key) {
    Failures f = failures.get(key);
    if (f != null && f.last().plus(FORGET_AFTER).isBefore(clock.instant())) {
      failures.remove(key);
      return null;
    }
    return f;
  }
}
