package io.periscope.entity;

import java.time.Instant;

/**
 * A refusal because an account is at one of its quotas: which one, its limit and, for a budget of a
 * period, when it resets go to the caller with the message.
 */
public final class OverQuota extends Refusal {
  private final String quota;
  private final Number limit;
  private final Instant resetsAt;

  public OverQuota(Kind kind, String quota, Number limit, String message) {
    this(kind, quota, limit, null, message);
  }

  public OverQuota(Kind kind, String quota, Number limit, Instant resetsAt, String message) {
    super(kind, message);
    this.quota = quota;
    this.limit = limit;
    this.resetsAt = resetsAt;
  }

  public String quota() {
    return quota;
  }

  public Number limit() {
    return limit;
  }

  /** When the quota's period starts again; null for a quota of no period. */
  public Instant resetsAt() {
    return resetsAt;
  }
}
