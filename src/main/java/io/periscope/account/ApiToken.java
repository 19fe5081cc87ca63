package io.periscope.account;

import io.periscope.entity.JsonSerializable;
import java.time.Instant;

/**
 * A personal API token as the account entity keeps it: its name and times, and only the SHA-256 of
 * the token itself.
 *
 * @param expiresAt null for a token that does not expire
 * @param lastUsedAt null until it is first used; kept to the minute
 */
public record ApiToken(
    String id, String name, String hash, Instant createdAt, Instant expiresAt, Instant lastUsedAt)
    implements JsonSerializable {

  public boolean liveAt(Instant now) {
    return expiresAt == null || now.isBefore(expiresAt);
  }

  ApiToken usedAt(Instant at) {
    return new ApiToken(id, name, hash, createdAt, expiresAt, at);
  }

  /** What the owner sees of it: never the hash. */
  public record View(
      String id, String name, Instant createdAt, Instant expiresAt, Instant lastUsedAt) {}

  public View view() {
    return new View(id, name, createdAt, expiresAt, lastUsedAt);
  }
}
