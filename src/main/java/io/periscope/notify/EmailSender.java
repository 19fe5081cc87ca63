package io.periscope.notify;

import io.periscope.entity.Failures;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Instant;
import java.util.Date;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.util.MailConnectException;

/**
 * The {@code email:<address>} channel over SMTP ({@code SMTP_*}), and the account mails
 * (verification, password reset): plain-text messages from {@code SMTP_FROM}. Port 465 speaks SMTPS
 * (TLS from the first byte); any other port upgrades with STARTTLS when the server offers it. It
 * logs in when {@code SMTP_USERNAME} is set.
 */
public final class EmailSender implements ChannelSender {
  private static final String TIMEOUT_MILLIS = "20000";

  private final SmtpSettings smtp;
  private final Executor blocking;

  /**
   * {@code blocking} runs the SMTP conversation, which blocks its thread for up to the timeouts.
   */
  public EmailSender(SmtpSettings smtp, Executor blocking) {
    this.smtp = smtp;
    this.blocking = blocking;
  }

  /**
   * A plain-text message to one address. {@code messageIdLocalPart}, when set, makes the {@code
   * Message-ID} stable ({@code <local part@sender's domain>}), so a mail resent after a retry is
   * recognisably the same message; otherwise each message gets a new one.
   */
  public record Mail(
      String to, String subject, String text, Instant at, String messageIdLocalPart) {
    public Mail(String to, String subject, String text, Instant at) {
      this(to, subject, text, at, null);
    }

    @Override
    public String toString() {
      return "Mail[subject=" + subject + "]"; // the text may carry a single-use token
    }
  }

  /** A message that could not be sent; the reason never names the SMTP password. */
  public static final class MailFailure extends RuntimeException {
    private final boolean retryable;

    MailFailure(String reason) {
      this(reason, false);
    }

    MailFailure(String reason, boolean retryable) {
      super(reason, null, false, false);
      this.retryable = retryable;
    }

    /** Whether sending again later may succeed: no connection, or a 4xx answer of the server. */
    public boolean retryable() {
      return retryable;
    }
  }

  public boolean configured() {
    return smtp.configured();
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    return send(new Mail(
            channel.target(),
            AlertFormat.headline(alert),
            AlertFormat.plainText(alert),
            alert.at(),
            alert.id()))
        .handle(
            (sent, failure) -> {
              if (failure == null) return Delivery.delivered(channel.id());
              if (Failures.unwrap(failure) instanceof MailFailure m)
                return m.retryable()
                    ? Delivery.retryable(channel.id(), m.getMessage(), null)
                    : Delivery.failed(channel.id(), m.getMessage());
              return Delivery.failed(channel.id(), HttpCalls.reason(failure, smtp.password()));
            });
  }

  /** Sends {@code mail} on the blocking executor; fails with {@link MailFailure}. */
  public CompletionStage<Void> send(Mail mail) {
    if (!smtp.configured()) {
      return CompletableFuture.failedFuture(new MailFailure("SMTP_HOST and SMTP_FROM are not set"));
    }
    return CompletableFuture.runAsync(() -> deliver(mail), blocking);
  }

  private void deliver(Mail mail) {
    String protocol = smtp.port() == 465 ? "smtps" : "smtp";
    Session session = Session.getInstance(properties(protocol));
    try {
      InternetAddress from = new InternetAddress(smtp.from(), true);
      MimeMessage message = new StableIdMessage(session, messageId(mail, from));
      message.setFrom(from);
      message.setRecipient(Message.RecipientType.TO, new InternetAddress(mail.to(), true));
      message.setSubject(mail.subject(), "UTF-8");
      message.setText(mail.text(), "UTF-8");
      message.setSentDate(Date.from(mail.at()));
      // Tells mail servers and vacation responders that no person wrote this (RFC 3834).
      message.setHeader("Auto-Submitted", "auto-generated");
      try (Transport transport = session.getTransport(protocol)) {
        transport.connect(
            smtp.host(),
            smtp.port(),
            smtp.authenticates() ? smtp.username() : null,
            smtp.authenticates() ? smtp.password() : null);
        transport.sendMessage(message, message.getAllRecipients());
      }
    } catch (MessagingException | RuntimeException e) {
      throw new MailFailure(HttpCalls.reason(e, smtp.password()), retryable(e));
    }
  }

  /** {@code <local part@domain of SMTP_FROM>}, or null for a new id per message. */
  private static String messageId(Mail mail, InternetAddress from) {
    if (mail.messageIdLocalPart() == null) return null;
    String address = from.getAddress();
    String domain = address.substring(address.lastIndexOf('@') + 1);
    return "<" + mail.messageIdLocalPart() + "@" + domain + ">";
  }

  /** Jakarta Mail writes a new Message-ID whenever it saves a message, unless told otherwise. */
  private static final class StableIdMessage extends MimeMessage {
    private final String messageId;

    StableIdMessage(Session session, String messageId) {
      super(session);
      this.messageId = messageId;
    }

    @Override
    protected void updateMessageID() throws MessagingException {
      if (messageId == null) super.updateMessageID();
      else setHeader("Message-ID", messageId);
    }
  }

  /**
   * Whether a failed conversation may succeed later: the server could not be reached or dropped the
   * connection, or it answered 4xx (a transient negative completion, RFC 5321 4.2.1) to the sender,
   * a recipient or the message. A 5xx (a bad address, a refused message) is permanent.
   */
  static boolean retryable(Throwable failure) {
    for (Throwable t = failure; t != null; ) {
      if (t instanceof SMTPSendFailedException f) return transientCode(f.getReturnCode());
      if (t instanceof SMTPAddressFailedException f) return transientCode(f.getReturnCode());
      if (t instanceof MailConnectException || t instanceof java.io.IOException) return true;
      Throwable next = t instanceof MessagingException m ? m.getNextException() : null;
      t = next != null ? next : t.getCause();
    }
    return false;
  }

  private static boolean transientCode(int code) {
    return code >= 400 && code < 500;
  }

  private Properties properties(String protocol) {
    String p = "mail." + protocol + ".";
    Properties props = new Properties();
    props.put(p + "host", smtp.host());
    props.put(p + "port", Integer.toString(smtp.port()));
    props.put(p + "auth", Boolean.toString(smtp.authenticates()));
    props.put(p + "connectiontimeout", TIMEOUT_MILLIS);
    props.put(p + "timeout", TIMEOUT_MILLIS);
    props.put(p + "writetimeout", TIMEOUT_MILLIS);
    props.put(p + "ssl.checkserveridentity", "true");
    if (protocol.equals("smtp")) props.put(p + "starttls.enable", "true");
    return props;
  }
}
