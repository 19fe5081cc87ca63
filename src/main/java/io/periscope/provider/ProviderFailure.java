package io.periscope.provider;

import java.time.Duration;

/**
 * A model or search provider call that failed, classified so the key pool knows what to do with the
 * key and the caller whether another key may succeed.
 */
public final class ProviderFailure extends RuntimeException {
  public enum Kind {
    /**
     * Too many requests: cool the key down until {@code retryAfter} (or a backoff) and try another.
     */
    RATE_LIMITED,
    /**
     * The key's quota or credit is spent (often a 429 in disguise): cool it down until its reset.
     */
    QUOTA_EXHAUSTED,
    /** The provider rejected the key itself: the key is dead. */
    INVALID_KEY,
    /** A 5xx, a timeout or a broken connection: retry, preferably on another key, with backoff. */
    TRANSIENT,
    /** The request itself was refused (a 4xx that no other key changes): do not retry. */
    REJECTED
  }

  private final Kind kind;
  private final Integer httpStatus;
  private final Duration retryAfter;

  public ProviderFailure(Kind kind, Integer httpStatus, Duration retryAfter, String message) {
    super(message, null, false, false);
    this.kind = kind;
    this.httpStatus = httpStatus;
    this.retryAfter = retryAfter;
  }

  public Kind kind() {
    return kind;
  }

  /** Null when no HTTP answer came (timeout, connection failure). */
  public Integer httpStatus() {
    return httpStatus;
  }

  /** The provider's Retry-After (or equivalent), null when it gave none. */
  public Duration retryAfter() {
    return retryAfter;
  }

  public boolean retryable() {
    return kind != Kind.REJECTED;
  }

  /**
   * Shorter runs of a key than this may appear in a message by chance; longer ones are the key
   * showing through.
   */
  static final int KEY_RUN_SHOWN = 8;

  /**
   * This failure with nothing of {@code key} in its message. Messages carry the provider's error
   * code, and a provider may echo the key it was sent as one (whole or in part): a message sharing
   * a run of {@value #KEY_RUN_SHOWN} characters with the key is replaced by the status alone.
   */
  public ProviderFailure withoutKey(String key) {
    String message = getMessage();
    boolean shows = false;
    for (int i = 0; key != null && i + KEY_RUN_SHOWN <= key.length() && !shows; i++) {
      shows = message.contains(key.substring(i, i + KEY_RUN_SHOWN));
    }
    if (!shows) return this;
    return new ProviderFailure(
        kind,
        httpStatus,
        retryAfter,
        httpStatus != null
            ? "the provider answered HTTP " + httpStatus
            : "the provider call failed");
  }
}
