package io.periscope.auth;

import java.util.Set;

/**
 * Who is calling: the account and its role as the account has it now.
 *
 * @param sessionId the sign-in's own id, for a sign-in token that carries one
 * @param apiTokenId the personal API token the caller used, if it used one
 * @param scopes what that personal API token may do; null for a sign-in, which may do all its
 *     account may
 * @param operator whether the command line called, with a token signed with the operator key (it
 *     may be told what no signed-in administrator is, such as a printed password-reset token)
 */
public record Principal(
    String accountId,
    Role role,
    String sessionId,
    String apiTokenId,
    Set<TokenScope> scopes,
    boolean operator) {
  /** The command line's own administrator, as the audit log names it. */
  public static final Principal OPERATOR =
      new Principal("periscope-cli", Role.ADMIN, null, null, null, true);

  /** The service itself, acting on the operator's settings (a purge), as the audit log names it. */
  public static final Principal SERVICE =
      new Principal("periscope", Role.ADMIN, null, null, null, true);

  /** Whoever held the start's one-time setup link, as the audit log names it. */
  public static final Principal SETUP_LINK =
      new Principal("setup-link", Role.ADMIN, null, null, null, true);

  public Principal(String accountId, Role role) {
    this(accountId, role, null, null, null, false);
  }

  /** The caller of a sign-in token. */
  static Principal fromSignIn(String accountId, Role role, String sessionId, boolean operator) {
    return new Principal(accountId, role, sessionId, null, null, operator);
  }

  /** The caller of a personal API token. */
  public static Principal fromApiToken(
      String accountId, Role role, String tokenId, Set<TokenScope> scopes) {
    return new Principal(accountId, role, null, tokenId, Set.copyOf(scopes), false);
  }

  public boolean isAdmin() {
    return role == Role.ADMIN;
  }

  /** Whether the caller signed in (a sign-in token), rather than using a personal API token. */
  public boolean signedIn() {
    return apiTokenId == null;
  }

  /** Whether the caller's token allows {@code scope}: a sign-in allows every one. */
  public boolean allows(TokenScope scope) {
    return scopes == null || scopes.contains(scope);
  }

  public Principal withRole(Role current) {
    return new Principal(accountId, current, sessionId, apiTokenId, scopes, operator);
  }
}
