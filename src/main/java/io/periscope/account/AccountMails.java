package io.periscope.account;

import io.periscope.notify.EmailSender.Mail;
import java.time.Duration;
import java.time.Instant;

/**
 * The texts of the account mails. The link opens the web client's page ({@code WEB_ORIGIN}'s, else
 * the one the service serves at {@code PUBLIC_URL}), the token in the URL fragment (never sent to
 * any server, so never in an access log); the page posts it to the service. The token is also
 * written out on its own line, for a client of the API alone.
 */
public final class AccountMails {
  private final String webClient;

  /**
   * @param webClient the web client's origin, without a trailing '/'
   */
  public AccountMails(String webClient) {
    this.webClient = webClient;
  }

  Mail verification(String to, String token, Duration lifetime, Instant now) {
    return new Mail(
        to,
        "Verify your e-mail address for Periscope",
        """
        Someone, hopefully you, created a Periscope account with this address.
        To confirm it is yours:

        %s

        The token works once, for %s. If you did not create this account, ignore this message.
        """
            .formatted(use(token, "verify-email"), hours(lifetime)),
        now);
  }

  Mail passwordReset(String to, String token, Duration lifetime, Instant now) {
    return new Mail(
        to,
        "Reset your Periscope password",
        """
        Someone, hopefully you, asked to reset the password of the Periscope account with this \
        address.
        To choose a new password:

        %s

        The token works once, for %s; using it ends every earlier sign-in. If you did not ask for \
        this, ignore
        this message: your password stays as it is.
        """
            .formatted(use(token, "reset-password"), hours(lifetime)),
        now);
  }

  /**
   * Sent instead of a verification when someone registers an address that has an account already.
   */
  Mail alreadyRegistered(String to, String resetToken, Duration lifetime, Instant now) {
    return new Mail(
        to,
        "You already have a Periscope account",
        """
        Someone, hopefully you, tried to create a Periscope account with this address, which has \
        one already.
        Sign in as usual, or, if you forgot the password, choose a new one:

        %s

        The token works once, for %s. If you did not ask for this, ignore this message.
        """
            .formatted(use(resetToken, "reset-password"), hours(lifetime)),
        now);
  }

  /**
   * Sent when an identity provider vouched for this address for somebody whose provider account is
   * not linked to the account holding it.
   */
  Mail identityLink(String to, String provider, String token, Duration lifetime, Instant now) {
    return new Mail(
        to,
        "Connect a sign-in to your Periscope account",
        """
        Someone signed in to Periscope through "%s" with this address, which your Periscope \
        account uses.
        If it was you, connect that sign-in to your account:

        %s

        The token works once, for %s. If it was not you, ignore this message: nobody can open \
        your account
        through that sign-in unless the token is used.
        """
            .formatted(provider, use(token, "link-identity"), hours(lifetime)),
        now);
  }

  /** Sent when an owner asks for alerts to this address: the mailbox has to agree. */
  public Mail channelAddress(
      String to, String accountId, String token, Duration lifetime, Instant now) {
    return new Mail(
        to,
        "Receive Periscope alerts at this address?",
        """
        The Periscope user "%s" asked to send the alerts of their watches to this address.
        If you agree:

        %s

        The token works once, for %s. If you do not agree, ignore this message: nothing is sent \
        here.
        """
            .formatted(accountId, use(token, "confirm-email-channel"), hours(lifetime)),
        now);
  }

  /** Sent when an administrator invites an address to register. */
  Mail invitation(String to, String token, Duration lifetime, Instant now) {
    return new Mail(
        to,
        "You are invited to Periscope",
        """
        An administrator of this Periscope invited this address to register. Choose a password:

        %s

        (or send it with your address and a password to POST /auth/register as "invitation").
        The invitation works once, for %s. If you do not want an account, ignore this message.
        """
            .formatted(use(token, "register"), hours(lifetime)),
        now);
  }

  /** The link to the web client's page, and the token for the service's POST /auth/{page}. */
  private String use(String token, String page) {
    return link(token, page) + "\n\nToken: " + token;
  }

  /** The web client's page that posts {@code token} to the service's POST /auth/{page}. */
  String link(String token, String page) {
    return webClient + "/" + page + "#token=" + token;
  }

  private static String hours(Duration lifetime) {
    long h = lifetime.toHours();
    return h == 1 ? "1 hour" : h + " hours";
  }
}
