package io.periscope.account;

import io.periscope.auth.Role;
import io.periscope.entity.JsonSerializable;
import java.time.Instant;

/**
 * The credentials and role of an account.
 *
 * @param passwordHash a bcrypt hash that never leaves the service; null for an account that signs
 *     in only through an identity provider (or whose unproven password was revoked), until a reset
 * @param emailVerified whether the owner of the address proved it (a mailed token, an identity
 *     provider, or an operator who made the account); absent in accounts older than verification,
 *     which operators made, so absent reads as verified
 * @param sessionGeneration the generation of the account's sign-in tokens: a password reset or
 *     change moves it on, and tokens of an older generation are refused
 * @param disabled whether an admin disabled the account: none of its tokens work and its watches do
 *     not run; absent in accounts older than disabling, which reads as enabled
 */
public record Account(
    String id,
    String email,
    Role role,
    String passwordHash,
    Instant createdAt,
    Boolean emailVerified,
    long sessionGeneration,
    Boolean disabled)
    implements JsonSerializable {

  public Account {
    if (emailVerified == null) emailVerified = Boolean.TRUE;
    if (disabled == null) disabled = Boolean.FALSE;
  }

  /** An enabled account. */
  public Account(
      String id,
      String email,
      Role role,
      String passwordHash,
      Instant createdAt,
      Boolean emailVerified,
      long sessionGeneration) {
    this(id, email, role, passwordHash, createdAt, emailVerified, sessionGeneration, false);
  }

  /** An account as an operator makes it: verified, first generation. */
  public static Account made(
      String id, String email, Role role, String passwordHash, Instant createdAt) {
    return new Account(id, email, role, passwordHash, createdAt, true, 0);
  }

  public boolean hasPassword() {
    return passwordHash != null;
  }

  /**
   * The address proven, optionally with the unproven password revoked (and so its sessions ended).
   */
  public Account verified(boolean revokePassword) {
    return revokePassword
        ? new Account(id, email, role, null, createdAt, true, sessionGeneration + 1, disabled)
        : new Account(id, email, role, passwordHash, createdAt, true, sessionGeneration, disabled);
  }

  /** A new password proven through the address or the old one: every earlier token ends. */
  public Account withNewPassword(String newHash) {
    return new Account(id, email, role, newHash, createdAt, true, sessionGeneration + 1, disabled);
  }

  /** Every sign-in token issued so far ends. */
  public Account withSessionsEnded() {
    return new Account(
        id, email, role, passwordHash, createdAt, emailVerified, sessionGeneration + 1, disabled);
  }

  public Account withRole(Role changed) {
    return new Account(
        id, email, changed, passwordHash, createdAt, emailVerified, sessionGeneration, disabled);
  }

  public Account withDisabled(boolean changed) {
    return new Account(
        id, email, role, passwordHash, createdAt, emailVerified, sessionGeneration, changed);
  }

  /** What may be shown of the account to its owner or an admin. */
  public record View(
      String id, String email, String role, boolean emailVerified, boolean disabled) {}

  public View view() {
    return new View(id, email, role.wire(), emailVerified, disabled);
  }
}
