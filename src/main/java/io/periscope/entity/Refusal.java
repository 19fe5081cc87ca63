package io.periscope.entity;

import java.util.function.Function;

/**
 * Why a request was refused, in the one vocabulary every door answers in: the route layer maps each
 * kind to one status in one place ({@code http.ErrorHandling}), the command line prints the
 * message. An entity refuses in its own words ({@link EntityRefusal}); what that means depends on
 * the command (a refused create is a conflict, a refused read is not found), so whoever asks names
 * the kind with {@link #as}.
 */
public class Refusal extends RuntimeException {
  /** What the refusal means to the caller. */
  public enum Kind {
    /** Absent, or not the caller's (404). */
    NOT_FOUND,
    /** Taken, or busy with another such request (409). */
    CONFLICT,
    /** The caller may not, as things stand (403). */
    FORBIDDEN,
    /** Understood, but refused as it is (422). */
    UNPROCESSABLE,
    /** Not configured, or nothing usable for it now (503). */
    UNAVAILABLE,
    /** An upstream (a model, a search provider) failed or answered nonsense (502). */
    UPSTREAM_FAILED,
    /** Used up for now: a quota that renews (429). */
    USED_UP
  }

  private final Kind kind;

  public Refusal(Kind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  /**
   * For {@code exceptionally}: an entity's refusal becomes a refusal of {@code kind} with {@code
   * message}; any other failure stays what it is.
   */
  public static <T> Function<Throwable, T> as(Kind kind, String message) {
    return failure -> {
      if (Failures.isRefusal(failure)) throw new Refusal(kind, message);
      return Failures.rethrow(failure);
    };
  }

  /** Like {@link #as(Kind, String)}, in the entity's own words. */
  public static <T> Function<Throwable, T> as(Kind kind) {
    return failure -> {
      if (Failures.isRefusal(failure))
        throw new Refusal(kind, Failures.unwrap(failure).getMessage());
      return Failures.rethrow(failure);
    };
  }
}
