package io.periscope.testing;

import io.periscope.notify.TelegramSettings;
import okhttp3.mockwebserver.MockWebServer;

/** A Telegram bot whose Bot API is a MockWebServer on loopback. */
public final class TestTelegram {
  private TestTelegram() {}

  /** The bot's token: a secret, which no delivery's error or log line may show. */
  public static final String TOKEN = "123456789:AAH-secret-bot-token_xyz";

  /**
   * The bot on {@code server}: alerts to {@code chat}, operational alerts to {@code adminChat}
   * (empty: to {@code chat}).
   */
  public static TelegramSettings settings(MockWebServer server, String chat, String adminChat) {
    return new TelegramSettings(server.url("/").toString(), TOKEN, chat, adminChat);
  }
}
