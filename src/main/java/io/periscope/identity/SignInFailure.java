package io.periscope.identity;

/** A sign-in through an identity provider that cannot finish, with what the client is told. */
public final class SignInFailure extends RuntimeException {
  /**
   * Each reason has its HTTP status and the code a web client receives in the redirect's fragment.
   */
  public enum Reason {
    /** No flow cookie, an expired one, or a state that does not match it: start again. */
    INVALID_STATE(400, "invalid_state"),
    /** The provider (or its token endpoint) did not sign the user in. */
    DENIED(401, "access_denied"),
    /**
     * The provider's answer failed verification (ID token signature, issuer, audience, expiry,
     * nonce).
     */
    INVALID_ANSWER(401, "invalid_answer"),
    /** The provider vouched for no verified e-mail address. */
    UNVERIFIED_EMAIL(403, "unverified_email"),
    /**
     * An account holds the address and is not linked to this provider account: its holder was
     * mailed a link that connects them.
     */
    LINK_MAILED(403, "link_mailed"),
    /**
     * An account holds the address and cannot be linked this way (an administrator's, or no e-mail
     * to confirm it with).
     */
    LINK_REFUSED(403, "link_refused"),
    /** No account is linked or holds the address, and REGISTRATION does not admit a new one. */
    SIGN_UP_CLOSED(403, "sign_up_closed"),
    /** GITHUB_ALLOWED_ORGS is set and the GitHub user is a member of none of them. */
    NOT_IN_ORGANIZATION(403, "not_in_organization"),
    /** The provider could not be reached, timed out, or answered something unreadable. */
    UNAVAILABLE(502, "provider_unavailable");

    public final int status;
    public final String code;

    Reason(int status, String code) {
      this.status = status;
      this.code = code;
    }
  }

  private final Reason reason;

  public SignInFailure(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
