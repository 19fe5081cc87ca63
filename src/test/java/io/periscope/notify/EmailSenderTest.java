package io.periscope.notify;

import static io.periscope.testing.Waits.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The e-mail channel against a real SMTP server (GreenMail) on loopback. */
public class EmailSenderTest {
  private static final String PASSWORD = "smtp-secret-password";

  private final ExecutorService blocking = Executors.newSingleThreadExecutor();
  private GreenMail mail;

  @Before
  public void start() {
    mail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
    mail.start();
  }

  @After
  public void stop() {
    mail.stop();
    blocking.shutdownNow();
  }

  private SmtpSettings smtp(String username, String password) {
    return new SmtpSettings(
        "127.0.0.1", mail.getSmtp().getPort(), username, password, "periscope@example.com");
  }

  @Test
  public void anAlertArrivesWithItsSubjectBodyAndRecipient() throws Exception {
    ChannelId channel = ChannelId.parse("email:alice@example.com").orElseThrow();

    Delivery delivery =
        await(new EmailSender(smtp("", ""), blocking).send(channel, Alerts.confirmed()));

    assertEquals(Delivery.delivered("email:alice@example.com"), delivery);
    assertTrue(mail.waitForIncomingEmail(5000, 1));
    MimeMessage message = mail.getReceivedMessages()[0];
    assertEquals("🔔 Acme launch — condition met (92%)", message.getSubject());
    assertEquals(
        "alice@example.com", message.getRecipients(Message.RecipientType.TO)[0].toString());
    assertEquals("periscope@example.com", message.getFrom()[0].toString());
    assertEquals(
        AlertFormat.plainText(Alerts.confirmed()),
        ((String) message.getContent()).replace("\r\n", "\n"));
  }

  @Test
  public void anAlertSentTwiceKeepsOneMessageIdAndAccountMailsGetFreshOnes() throws Exception {
    ChannelId channel = ChannelId.parse("email:alice@example.com").orElseThrow();
    EmailSender sender = new EmailSender(smtp("", ""), blocking);

    assertTrue(await(sender.send(channel, Alerts.confirmed())).ok());
    assertTrue(await(sender.send(channel, Alerts.confirmed())).ok());
    await(
        sender
            .send(new EmailSender.Mail("alice@example.com", "Hi", "text", Alerts.AT))
            .thenApply(v -> true));

    assertTrue(mail.waitForIncomingEmail(5000, 3));
    MimeMessage[] received = mail.getReceivedMessages();
    String expected = "<" + Alerts.confirmed().id() + "@example.com>";
    assertEquals(expected, received[0].getMessageID());
    assertEquals(expected, received[1].getMessageID());
    assertNotEquals(expected, received[2].getMessageID());
  }

  @Test
  public void itLogsInWhenAUsernameIsSet() throws Exception {
    mail.setUser("periscope@example.com", "periscope", PASSWORD);
    ChannelId channel = ChannelId.parse("email:bob@example.com").orElseThrow();

    Delivery delivery =
        await(new EmailSender(smtp("periscope", PASSWORD), blocking).send(channel, Alerts.weak()));

    assertTrue(delivery.error(), delivery.ok());
    assertTrue(mail.waitForIncomingEmail(5000, 1));
    assertTrue(
        mail.getReceivedMessages()[0]
            .getSubject()
            .startsWith("🔸 Possible match (unconfirmed, 61%)"));
  }

  @Test
  public void aWrongPasswordFailsWithoutNamingAnyPassword() throws Exception {
    mail.setUser("periscope@example.com", "periscope", PASSWORD);
    ChannelId channel = ChannelId.parse("email:bob@example.com").orElseThrow();

    Delivery delivery =
        await(
            new EmailSender(smtp("periscope", "wrong-" + PASSWORD), blocking)
                .send(channel, Alerts.confirmed()));

    assertFalse(delivery.ok());
    assertFalse("a refused login (535) is permanent", delivery.retryable());
    assertFalse(delivery.error(), delivery.error().contains(PASSWORD));
    assertEquals(0, mail.getReceivedMessages().length);
  }

  /**
   * A server that answers {@code rcptReply} to RCPT TO, as a greylisting or full server answers 451
   * or 452, and a permanent refusal 550; everything else it accepts.
   */
  private static Delivery sendToServerAnsweringRcpt(String rcptReply, Executor blocking)
      throws Exception {
    try (java.net.ServerSocket server = new java.net.ServerSocket(0)) {
      Thread conversation =
          new Thread(
              () -> {
                try (java.net.Socket s = server.accept();
                    var in =
                        new java.io.BufferedReader(
                            new java.io.InputStreamReader(
                                s.getInputStream(), StandardCharsets.US_ASCII));
                    var out = new java.io.PrintWriter(s.getOutputStream(), true)) {
                  out.print("220 test ESMTP\r\n");
                  out.flush();
                  for (String line; (line = in.readLine()) != null; ) {
                    String verb = line.length() >= 4 ? line.substring(0, 4).toUpperCase() : line;
                    out.print(
                        switch (verb) {
                          case "EHLO" -> "250 test\r\n";
                          case "RCPT" -> rcptReply + "\r\n";
                          case "QUIT" -> "221 bye\r\n";
                          default -> "250 ok\r\n";
                        });
                    out.flush();
                    if (verb.equals("QUIT")) break;
                  }
                } catch (java.io.IOException ignored) {
                  // the client hung up: the conversation is over
                }
              });
      conversation.start();
      Delivery delivery =
          await(
              new EmailSender(
                      new SmtpSettings(
                          "127.0.0.1", server.getLocalPort(), "", "", "periscope@example.com"),
                      blocking)
                  .send(
                      ChannelId.parse("email:bob@example.com").orElseThrow(), Alerts.confirmed()));
      conversation.join(5000);
      return delivery;
    }
  }

  @Test
  public void anSmtp4xxMayPassAnSmtp5xxIsPermanent() throws Exception {
    Delivery greylisted = sendToServerAnsweringRcpt("451 4.7.1 try again later", blocking);
    assertFalse(greylisted.ok());
    assertTrue(greylisted.error(), greylisted.retryable());
    Delivery unknown = sendToServerAnsweringRcpt("550 5.1.1 no such user", blocking);
    assertFalse(unknown.ok());
    assertFalse(unknown.error(), unknown.retryable());
  }

  @Test
  public void withoutSmtpSettingsItFailsAsNotConfigured() throws Exception {
    ChannelId channel = ChannelId.parse("email:bob@example.com").orElseThrow();
    Delivery delivery =
        await(
            new EmailSender(new SmtpSettings("", 587, "", "", ""), blocking)
                .send(channel, Alerts.confirmed()));
    assertEquals(
        Delivery.failed("email:bob@example.com", "SMTP_HOST and SMTP_FROM are not set"), delivery);
  }
}
