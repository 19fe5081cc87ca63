package io.periscope.auth;

import io.periscope.owner.Role;

/**
 * Who is calling: the account and its role as the account has it now.
 *
 * @param sessionId the sign-in's own id, for a sign-in token that carries one
 * @param apiTokenId the personal API token the caller used, if it used one
 */
public record Principal(String accountId, Role role, String sessionId, String apiTokenId) {
  public Principal(String accountId, Role role) {
    this(accountId, role, null, null);
  }

  public boolean isAdmin() {
    return role == Role.ADMIN;
  }

  /** Whether the caller signed in (a sign-in token), rather than using a personal API token. */
  public boolean signedIn() {
    return apiTokenId == null;
  }

  Principal withRole(Role current) {
    return new Principal(accountId, current, sessionId, apiTokenId);
  }
}
