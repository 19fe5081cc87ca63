package io.periscope.entity;

/**
 * A refusal because an account is at one of its quotas: which one and its limit go to the caller
 * with the message.
 */
public final class OverQuota extends Refusal {
  private final String quota;
  private final long limit;

  public OverQuota(Kind kind, String quota, long limit, String message) {
    super(kind, message);
    this.quota = quota;
    this.limit = limit;
  }

  public String quota() {
    return quota;
  }

  public long limit() {
    return limit;
  }
}
