package io.periscope.account;

import io.periscope.auth.TokenScope;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A personal API token as the account entity keeps it: its name, times and scopes, and only the
 * SHA-256 of the token itself.
 *
 * @param expiresAt null for a token that does not expire (only tokens made before every token got
 *     an expiry)
 * @param lastUsedAt null until it is first used; kept to the minute
 * @param scopes what it may do; null for a token made before scopes existed, which may do {@link
 *     TokenScope#BEFORE_SCOPES}
 */
public record ApiToken(
    String id,
    String name,
    String hash,
    Instant createdAt,
    Instant expiresAt,
    Instant lastUsedAt,
    List<TokenScope> scopes)
    implements JsonSerializable {

  public boolean liveAt(Instant now) {
    return expiresAt == null || now.isBefore(expiresAt);
  }

  /** What it may do. */
  public Set<TokenScope> grants() {
    if (scopes == null) return TokenScope.BEFORE_SCOPES;
    return scopes.isEmpty() ? EnumSet.noneOf(TokenScope.class) : EnumSet.copyOf(scopes);
  }

  ApiToken usedAt(Instant at) {
    return new ApiToken(id, name, hash, createdAt, expiresAt, at, scopes);
  }

  /** What the owner sees of it: never the hash. */
  public record View(
      String id,
      String name,
      List<TokenScope> scopes,
      Instant createdAt,
      Instant expiresAt,
      Instant lastUsedAt) {}

  public View view() {
    return new View(id, name, List.copyOf(grants()), createdAt, expiresAt, lastUsedAt);
  }
}
