package io.periscope.notify;

import com.typesafe.config.Config;
import java.util.Optional;

/** The Telegram bot ({@code TELEGRAM_*}): the Bot API base, the token and the two chats. */
public record TelegramSettings(
    String apiBaseUrl, String botToken, String chatId, String adminChatId) {

  public TelegramSettings {
    apiBaseUrl = apiBaseUrl == null ? "" : apiBaseUrl.replaceAll("/+$", "");
    botToken = botToken == null ? "" : botToken.trim();
    chatId = chatId == null ? "" : chatId.trim();
    adminChatId = adminChatId == null ? "" : adminChatId.trim();
  }

  /** Reads the {@code periscope.telegram} block. */
  public static TelegramSettings from(Config config) {
    Config t = config.getConfig("periscope.telegram");
    return new TelegramSettings(
        t.getString("api-base-url"),
        t.getString("bot-token"),
        t.getString("chat-id"),
        t.getString("admin-chat-id"));
  }

  public boolean hasToken() {
    return !botToken.isEmpty();
  }

  /** The chat of the bare {@code telegram} channel: {@code TELEGRAM_CHAT_ID}. */
  public Optional<String> defaultChat() {
    return chatId.isEmpty() ? Optional.empty() : Optional.of(chatId);
  }

  /** Where operational alerts go: {@code TELEGRAM_ADMIN_CHAT_ID}, else the normal chat. */
  public Optional<String> adminChat() {
    return adminChatId.isEmpty() ? defaultChat() : Optional.of(adminChatId);
  }

  @Override
  public String toString() {
    return "TelegramSettings[api="
        + apiBaseUrl
        + ", token="
        + (hasToken() ? "set" : "unset")
        + ", chat="
        + chatId
        + ", adminChat="
        + adminChatId
        + "]"; // never the token
  }
}
