package io.periscope.account;

import io.periscope.entity.Refusal;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who may open an account by themselves, through {@code /auth/register} or a first sign-in with an
 * identity provider ({@code REGISTRATION}): nobody ({@code closed}, the default: accounts come from
 * an administrator or the command line), anybody ({@code open}), or addresses of the listed domains
 * ({@code domains} with {@code REGISTRATION_DOMAINS}). Accounts that exist sign in whatever the
 * rule says.
 */
public record Registration(Mode mode, Set<String> domains) {
  public enum Mode {
    CLOSED,
    OPEN,
    DOMAINS
  }

  public static final Registration CLOSED = new Registration(Mode.CLOSED, Set.of());

  /**
   * A sign-up the rule refuses: one answer for every address, so it tells nothing about accounts.
   */
  public static final class Refused extends Refusal {
    Refused(Mode mode) {
      super(
          Kind.FORBIDDEN,
          mode == Mode.DOMAINS
              ? "sign-up on this instance is open to addresses of certain domains only; ask an"
                  + " administrator for an account"
              : "sign-up on this instance is closed; ask an administrator for an account");
    }
  }

  /**
   * @throws IllegalArgumentException for a mode that is none of the three, or {@code domains}
   *     without a domain
   */
  public static Registration from(String mode, String domains) {
    Mode chosen;
    try {
      chosen = Mode.valueOf(mode.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("REGISTRATION must be closed, open or domains");
    }
    Set<String> listed =
        java.util.Arrays.stream(domains.split(","))
            .map(d -> d.strip().toLowerCase(Locale.ROOT))
            .map(d -> d.startsWith("@") ? d.substring(1) : d)
            .filter(d -> !d.isEmpty())
            .collect(Collectors.toUnmodifiableSet());
    if (chosen == Mode.DOMAINS && listed.isEmpty()) {
      throw new IllegalArgumentException("REGISTRATION=domains needs REGISTRATION_DOMAINS");
    }
    return new Registration(chosen, chosen == Mode.DOMAINS ? listed : Set.of());
  }

  /** Whether {@code address} (normalized) may open an account by itself. */
  public boolean admits(String address) {
    return switch (mode) {
      case CLOSED -> false;
      case OPEN -> true;
      case DOMAINS -> domains.contains(address.substring(address.lastIndexOf('@') + 1));
    };
  }

  /**
   * @throws Refused unless {@code address} may open an account by itself
   */
  public void require(String address) {
    if (!admits(address)) throw new Refused(mode);
  }
}
