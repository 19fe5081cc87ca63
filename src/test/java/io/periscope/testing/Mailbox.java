package io.periscope.testing;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real SMTP server (GreenMail) on loopback, and what arrived in it, read as a person would read
 * it.
 */
public final class Mailbox implements AutoCloseable {
  private static final Pattern TOKEN = Pattern.compile("Token: (\\S+)");
  private final GreenMail server;

  public Mailbox() {
    server =
        new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
    server.start();
  }

  /** The service's SMTP settings for this server. */
  public Config smtpConfig() {
    return ConfigFactory.parseMap(
        Map.of(
            "periscope.smtp.host",
            "127.0.0.1",
            "periscope.smtp.port",
            server.getSmtp().getPort(),
            "periscope.smtp.from",
            "periscope@example.org"));
  }

  /** One received message: its recipient, subject and plain text. */
  public record Received(String to, String subject, String text) {
    /** The single-use token the message carries on its "Token:" line. */
    public String token() {
      Matcher m = TOKEN.matcher(text);
      if (!m.find()) throw new AssertionError("no token in: " + text);
      return m.group(1);
    }
  }

  public List<Received> to(String address) throws Exception {
    List<Received> out = new ArrayList<>();
    for (MimeMessage m : server.getReceivedMessages()) {
      String to = m.getRecipients(Message.RecipientType.TO)[0].toString();
      if (to.equalsIgnoreCase(address)) {
        out.add(new Received(to, m.getSubject(), ((String) m.getContent()).replace("\r\n", "\n")));
      }
    }
    return out;
  }

  /** The {@code n}th message (from 1) to {@code address}, waiting up to 10 s for it. */
  public Received await(String address, int n) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      List<Received> received = to(address);
      if (received.size() >= n) return received.get(n - 1);
      Thread.sleep(50);
    }
    throw new AssertionError(
        "no message " + n + " to " + address + " within 10 s; got " + to(address));
  }

  @Override
  public void close() {
    server.stop();
  }
}
