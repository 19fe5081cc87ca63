package io.periscope.notify;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.util.Date;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The {@code email:<address>} channel over SMTP ({@code SMTP_*}): a plain-text message from {@code SMTP_FROM}.
 * Port 465 speaks SMTPS (TLS from the first byte); any other port upgrades with STARTTLS when the server
 * offers it. It logs in when {@code SMTP_USERNAME} is set.
 */
public final class EmailSender implements ChannelSender {
  private static final String TIMEOUT_MILLIS = "20000";

  private final SmtpSettings smtp;
  private final Executor blocking;

  /** {@code blocking} runs the SMTP conversation, which blocks its thread for up to the timeouts. */
  public EmailSender(SmtpSettings smtp, Executor blocking) {
    this.smtp = smtp;
    this.blocking = blocking;
  }

  @Override
  public CompletionStage<Delivery> send(ChannelId channel, Alert alert) {
    if (!smtp.configured()) {
      return CompletableFuture.completedFuture(Delivery.failed(channel.id(), "SMTP_HOST and SMTP_FROM are not set"));
    }
    return CompletableFuture.supplyAsync(() -> deliver(channel, alert), blocking)
        .exceptionally(e -> Delivery.failed(channel.id(), HttpCalls.reason(e, smtp.password())));
  }

  private Delivery deliver(ChannelId channel, Alert alert) {
    String protocol = smtp.port() == 465 ? "smtps" : "smtp";
    Session session = Session.getInstance(properties(protocol));
    try {
      MimeMessage message = new MimeMessage(session);
      message.setFrom(new InternetAddress(smtp.from(), true));
      message.setRecipient(Message.RecipientType.TO, new InternetAddress(channel.target(), true));
      message.setSubject(AlertFormat.headline(alert), "UTF-8");
      message.setText(AlertFormat.plainText(alert), "UTF-8");
      message.setSentDate(Date.from(alert.at()));
      // Tells mail servers and vacation responders that no person wrote this (RFC 3834).
      message.setHeader("Auto-Submitted", "auto-generated");
      try (Transport transport = session.getTransport(protocol)) {
        transport.connect(smtp.host(), smtp.port(),
            smtp.authenticates() ? smtp.username() : null, smtp.authenticates() ? smtp.password() : null);
        transport.sendMessage(message, message.getAllRecipients());
      }
      return Delivery.delivered(channel.id());
    } catch (MessagingException | RuntimeException e) {
      return Delivery.failed(channel.id(), HttpCalls.reason(e, smtp.password()));
    }
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
