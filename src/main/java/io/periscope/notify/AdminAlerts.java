package io.periscope.notify;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operational health alerts (docs/runs.md, "Operational alerts") to the admin chat: {@code
 * TELEGRAM_ADMIN_CHAT_ID}, else {@code TELEGRAM_CHAT_ID}. They open with ⚠️ and read unlike event
 * alerts:
 *
 * <pre>
 * ⚠️ Periscope: all-sources-failed
 * alice/acme-launch: 2 of 2 sources failed
 * </pre>
 *
 * Best effort: sending never blocks the caller and never fails; an alert that cannot be sent is
 * logged, and without a bot token or chat the alert is logged at WARN instead.
 */
public final class AdminAlerts {
  private static final Logger log = LoggerFactory.getLogger(AdminAlerts.class);
  private static final String WARNING = "⚠️";
  private static final int MAX_DETAIL = 1000;

  public enum Kind {
    WATCH_ERRORED("watch-errored"),
    VERDICT_UNAVAILABLE("verdict-unavailable"),
    ALL_SOURCES_FAILED("all-sources-failed"),
    SCHEDULER_TICK_CRASHED("scheduler-tick-crashed"),
    SCHEDULED_RUN_CRASHED("scheduled-run-crashed"),
    ALERT_INTERRUPTED("alert-interrupted"),
    KEY_UNDECRYPTABLE("key-undecryptable"),
    CHANNEL_REFUSED("channel-refused"),
    DELIVERY_FAILED("delivery-failed");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final TelegramSender telegram;
  private final NotifyMeters meters;

  public AdminAlerts(TelegramSender telegram, NotifyMeters meters) {
    this.telegram = telegram;
    this.meters = meters;
  }

  /** Counted into a registry of its own, which no scrape reads (the command line, tests). */
  public AdminAlerts(TelegramSender telegram) {
    this(telegram, new NotifyMeters(new SimpleMeterRegistry()));
  }

  /**
   * To the admin chat of this configuration's Telegram settings, over an operator-trusted client.
   */
  public static AdminAlerts create(
      com.typesafe.config.Config config, okhttp3.OkHttpClient trusted, NotifyMeters meters) {
    return new AdminAlerts(new TelegramSender(trusted, TelegramSettings.from(config)), meters);
  }

  /** As {@link #create(com.typesafe.config.Config, okhttp3.OkHttpClient, NotifyMeters)}, unread. */
  public static AdminAlerts create(
      com.typesafe.config.Config config, okhttp3.OkHttpClient trusted) {
    return create(config, trusted, new NotifyMeters(new SimpleMeterRegistry()));
  }

  /** An alert about one watch. */
  public CompletionStage<Void> alert(Kind kind, String owner, String watchId, String detail) {
    return send(kind, Optional.of(owner + "/" + watchId), detail);
  }

  /** An alert about the runtime itself, such as a crashed scheduler tick. */
  public CompletionStage<Void> alert(Kind kind, String detail) {
    return send(kind, Optional.empty(), detail);
  }

  private CompletionStage<Void> send(Kind kind, Optional<String> subject, String detail) {
    try {
      String text =
          AlertFormat.truncate(AlertFormat.oneLine(detail == null ? "" : detail), MAX_DETAIL);
      String html =
          WARNING
              + " <b>Periscope: "
              + kind.label()
              + "</b>\n"
              + subject.map(s -> "<code>" + AlertFormat.escapeHtml(s) + "</code>: ").orElse("")
              + AlertFormat.escapeHtml(text);
      String logged = subject.map(s -> "watch=" + s + " ").orElse("") + "detail=\"" + text + "\"";
      Optional<String> chat = telegram.settings().adminChat();
      if (!telegram.settings().hasToken() || chat.isEmpty()) {
        meters.adminAlert(kind, false);
        log.warn(
            "event=admin-alert kind={} delivered=false reason=telegram-not-configured {}",
            kind.label(),
            logged);
        return CompletableFuture.completedFuture(null);
      }
      return telegram
          .sendHtml("telegram:" + chat.get(), chat.get(), html)
          .handle(
              (delivery, failure) -> {
                meters.adminAlert(kind, failure == null && delivery.ok());
                if (failure != null || !delivery.ok()) {
                  String reason =
                      failure != null
                          ? HttpCalls.reason(failure, telegram.settings().botToken())
                          : delivery.error();
                  log.warn(
                      "event=admin-alert kind={} delivered=false reason=\"{}\" {}",
                      kind.label(),
                      reason,
                      logged);
                } else {
                  log.info("event=admin-alert kind={} delivered=true {}", kind.label(), logged);
                }
                return null;
              });
    } catch (RuntimeException e) {
      // Alerting is never allowed to hide the problem being alerted about.
      meters.adminAlert(kind, false);
      log.warn(
          "event=admin-alert kind={} delivered=false reason=\"{}\"",
          kind.label(),
          HttpCalls.reason(e, telegram.settings().botToken()));
      return CompletableFuture.completedFuture(null);
    }
  }
}
