package io.periscope.account;

import io.periscope.auth.MailedTokens;
import io.periscope.auth.TokenPurpose;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;

/**
 * A single-use token an account was mailed, kept only as its hash, until it is used, replaced or
 * expired.
 */
public record PendingToken(TokenPurpose purpose, String tokenHash, Instant expiresAt)
    implements JsonSerializable {

  /**
   * Whether {@code hash} is this token's, for {@code purpose}, before it expires (compared in
   * constant time).
   */
  boolean accepts(TokenPurpose purpose, String hash, Instant now) {
    return this.purpose == purpose
        && now.isBefore(expiresAt)
        && MailedTokens.sameHash(tokenHash, hash);
  }
}
