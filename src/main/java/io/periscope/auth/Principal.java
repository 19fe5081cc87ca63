package io.periscope.auth;

import io.periscope.account.Role;

/**
 * Who is calling: the account and its role as the account has it now.
 *
 * @param sessionId the sign-in's own id, for a sign-in token that carries one
 * @param apiTokenId the personal API token the caller used, if it used one
 * @param operator whether the command line called, with a token minted from the service's own
 *     secret (whoever holds it could mint any account's token, so it may be told what no signed-in
 *     administrator is, such as a printed password-reset token)
 */
public record Principal(
    String accountId, Role role, String sessionId, String apiTokenId, boolean operator) {
  /** The command line's own administrator, as the audit log names it. */
  public static final Principal OPERATOR =
      new Principal("periscope-cli", Role.ADMIN, null, null, true);

  public Principal(String accountId, Role role) {
    this(accountId, role, null, null, false);
  }

  public Principal(String accountId, Role role, String sessionId, String apiTokenId) {
    this(accountId, role, sessionId, apiTokenId, false);
  }

  public boolean isAdmin() {
    return role == Role.ADMIN;
  }

  /** Whether the caller signed in (a sign-in token), rather than using a personal API token. */
  public boolean signedIn() {
    return apiTokenId == null;
  }

  Principal withRole(Role current) {
    return new Principal(accountId, current, sessionId, apiTokenId, operator);
  }
}
