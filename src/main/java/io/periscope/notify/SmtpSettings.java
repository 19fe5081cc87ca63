package io.periscope.notify;

import com.typesafe.config.Config;

/** The SMTP relay for {@code email:} channels ({@code SMTP_*}). */
public record SmtpSettings(String host, int port, String username, String password, String from) {

  public SmtpSettings {
    host = host == null ? "" : host.trim();
    username = username == null ? "" : username;
    password = password == null ? "" : password;
    from = from == null ? "" : from.trim();
  }

  /** Reads the {@code periscope.smtp} block. */
  public static SmtpSettings from(Config config) {
    Config s = config.getConfig("periscope.smtp");
    return new SmtpSettings(
        s.getString("host"),
        s.getInt("port"),
        s.getString("username"),
        s.getString("password"),
        s.getString("from"));
  }

  public boolean configured() {
    return !host.isEmpty() && !from.isEmpty();
  }

  public boolean authenticates() {
    return !username.isEmpty();
  }

  @Override
  public String toString() {
    return "SmtpSettings[host="
        + host
        + ", port="
        + port
        + ", username="
        + username
        + ", from="
        + from
        + "]";
  }
}
