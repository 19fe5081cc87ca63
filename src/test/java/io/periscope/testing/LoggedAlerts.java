package io.periscope.testing;

import io.periscope.notify.AdminAlerts;
import io.periscope.notify.TelegramSender;
import io.periscope.notify.TelegramSettings;
import okhttp3.OkHttpClient;

/** Operational alerts without Telegram: each is logged ({@code event=admin-alert …}) instead. */
public final class LoggedAlerts {
  private LoggedAlerts() {}

  public static AdminAlerts create() {
    return new AdminAlerts(
        new TelegramSender(new OkHttpClient(), new TelegramSettings("", "", "", "")));
  }
}
