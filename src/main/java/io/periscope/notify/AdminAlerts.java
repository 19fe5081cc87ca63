package io.periscope.notify;

import com.typesafe.config.Config;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operational health alerts (docs/runs.md, "Operational alerts") to the operator's channels, {@code
 * ADMIN_CHANNELS} (any channel of a watch's grammar but {@code push}), else the Telegram admin
 * chat: {@code TELEGRAM_ADMIN_CHAT_ID}, else {@code TELEGRAM_CHAT_ID}. They open with ⚠️ and read
 * unlike event alerts:
 *
 * <pre>
 * ⚠️ Periscope: all-sources-failed
 * alice/acme-launch: 2 of 2 sources failed
 * </pre>
 *
 * Best effort: sending never blocks the caller and never fails, nor is it retried; an alert that
 * cannot be sent is logged, and without ADMIN_CHANNELS, a bot token or chat the alert is logged at
 * WARN instead.
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
    DELIVERY_FAILED("delivery-failed"),
    MAIL_BUDGET_REACHED("mail-budget-reached"),
    WATCHES_FAILING("watches-failing"),
    ALERTS_HELD("alerts-held");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final TelegramSender telegram;

  /** ADMIN_CHANNELS; empty for the Telegram admin chat. */
  private final List<ChannelId> channels;

  private final Map<ChannelId.Kind, ChannelSender> senders;
  private final NotifyMeters meters;

  /** Null until {@link #throttle}: each alert goes at once. */
  private volatile AlertBudget budget;

  /** To the Telegram admin chat of {@code telegram}'s settings. */
  public AdminAlerts(TelegramSender telegram, NotifyMeters meters) {
    this(telegram, List.of(), Map.of(), meters);
  }

  /**
   * To {@code channels} (ADMIN_CHANNELS) through {@code senders}; to the Telegram admin chat when
   * there are none.
   */
  public AdminAlerts(
      TelegramSender telegram,
      List<ChannelId> channels,
      Map<ChannelId.Kind, ChannelSender> senders,
      NotifyMeters meters) {
    this.telegram = telegram;
    this.channels = List.copyOf(channels);
    this.senders = Map.copyOf(senders);
    this.meters = meters;
  }

  /** Counted into a registry of its own, which no scrape reads (the command line, tests). */
  public AdminAlerts(TelegramSender telegram) {
    this(telegram, new NotifyMeters(new SimpleMeterRegistry()));
  }

  /**
   * To this configuration's ADMIN_CHANNELS, else its Telegram admin chat, over an operator-trusted
   * client (the operator configured them, as the bot's API); {@code blocking} runs SMTP
   * conversations.
   */
  public static AdminAlerts create(
      Config config, OkHttpClient trusted, Executor blocking, NotifyMeters meters) {
    TelegramSender telegram = new TelegramSender(trusted, TelegramSettings.from(config));
    List<ChannelId> channels =
        channels(config).stream().map(id -> ChannelId.parse(id).orElseThrow()).toList();
    if (channels.isEmpty()) return new AdminAlerts(telegram, meters);
    return new AdminAlerts(
        telegram,
        channels,
        Notifier.senders(config, trusted, trusted, blocking, WebhookSecrets.NONE),
        meters);
  }

  /**
   * ADMIN_CHANNELS, {@code periscope.notify.admin-channels}: the channels operational alerts go to,
   * in a watch's channel grammar, separated by commas or blanks; none (unset) for the Telegram
   * admin chat. {@code push} is no operator's: it reaches an account's devices.
   */
  public static List<String> channels(Config config) {
    String path = "periscope.notify.admin-channels";
    String value = config.hasPath(path) ? config.getString(path).trim() : "";
    if (value.isEmpty()) return List.of();
    List<String> channels = new ArrayList<>();
    String[] ids = value.split("[,\\s]+");
    for (int i = 0; i < ids.length; i++) {
      String id = ids[i];
      if (id.isEmpty() || channels.contains(id)) continue;
      var channel = ChannelId.parse(id);
      // named by its place, not its text: a URL's user part may be a token
      if (channel.isEmpty() || channel.get().kind() == ChannelId.Kind.PUSH)
        throw new IllegalArgumentException(
            "ADMIN_CHANNELS: entry "
                + (i + 1)
                + " is not a channel identifier an operator can use (telegram, telegram:<chat id>,"
                + " email:<address>, webhook:<url>, ntfy:<url>, slack:<url>, discord:<url>,"
                + " gotify:<url>, matrix:<url>, pushover:<user key>@<app token>, apprise:<url>)");
      channels.add(id);
    }
    return List.copyOf(channels);
  }

  /**
   * As {@link #create(Config, OkHttpClient, Executor, NotifyMeters)}, unread (the command line).
   */
  public static AdminAlerts create(Config config, OkHttpClient trusted) {
    return create(
        config, trusted, ForkJoinPool.commonPool(), new NotifyMeters(new SimpleMeterRegistry()));
  }

  /**
   * From now on, alerts go through the operator's alert budget ({@link AlertBudget}): a serving
   * node's. Sending then completes when the alert is gathered, held or handed on. Closing the
   * answer stops the budget's timer.
   */
  public AlertBudget throttle(AlertBudget.Settings settings) {
    AlertBudget throttled = new AlertBudget(settings, this::send);
    budget = throttled;
    return throttled;
  }

  /** An alert about one watch. */
  public CompletionStage<Void> alert(Kind kind, String accountId, String watchId, String detail) {
    AlertBudget throttled = budget;
    if (throttled == null) return send(kind, Optional.of(accountId + "/" + watchId), detail);
    throttled.watchAlert(kind, accountId, watchId, detail);
    return CompletableFuture.completedFuture(null);
  }

  /** An alert about the runtime itself, such as a crashed scheduler tick. */
  public CompletionStage<Void> alert(Kind kind, String detail) {
    AlertBudget throttled = budget;
    if (throttled == null) return send(kind, Optional.empty(), detail);
    throttled.serviceAlert(kind, detail);
    return CompletableFuture.completedFuture(null);
  }

  private CompletionStage<Void> send(Kind kind, Optional<String> subject, String detail) {
    try {
      String text =
          AlertFormat.truncate(AlertFormat.oneLine(detail == null ? "" : detail), MAX_DETAIL);
      String logged = subject.map(s -> "watch=" + s + " ").orElse("") + "detail=\"" + text + "\"";
      if (!channels.isEmpty()) return toChannels(kind, subject, text, logged);
      String html =
          WARNING
              + " <b>Periscope: "
              + kind.label()
              + "</b>\n"
              + subject.map(s -> "<code>" + AlertFormat.escapeHtml(s) + "</code>: ").orElse("")
              + AlertFormat.escapeHtml(text);
      Optional<String> chat = telegram.settings().adminChat();
      if (!telegram.settings().hasToken() || chat.isEmpty()) {
        meters.adminAlert(kind, false);
        log.warn(
            "event=admin-alert kind={} delivered=false reason=telegram-not-configured {}",
            kind.label(),
            logged);
        return CompletableFuture.completedFuture(null);
      }
      return reported(
          kind,
          "telegram",
          telegram.settings().botToken(),
          logged,
          () -> telegram.sendHtml("telegram:" + chat.get(), chat.get(), html));
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

  /**
   * To each of ADMIN_CHANNELS at once, as an operational notice: "⚠️ Periscope: kind", then the
   * watch and the detail.
   */
  private CompletionStage<Void> toChannels(
      Kind kind, Optional<String> subject, String text, String logged) {
    Alert alert =
        new Alert(
            "",
            "",
            "Periscope:",
            Alert.Strength.NOTICE,
            1,
            kind.label() + "\n" + subject.map(s -> s + ": ").orElse("") + text,
            List.of(),
            "",
            Instant.now(),
            "admin-" + UUID.randomUUID());
    List<CompletableFuture<Void>> each = new ArrayList<>();
    for (ChannelId channel : channels) {
      ChannelSender sender = senders.get(channel.kind());
      String name = channel.kind().name().toLowerCase(Locale.ROOT);
      each.add(
          reported(
              kind,
              name,
              channel.target(),
              logged,
              () ->
                  sender == null
                      ? CompletableFuture.completedFuture(
                          Delivery.failed(channel.id(), name + " is not configured"))
                      : sender.send(channel, alert)));
    }
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new));
  }

  /**
   * Counts and logs how one channel's sending ended; never fails. {@code secret}: what no reason
   * may quote (the bot token, a channel's target).
   */
  private CompletableFuture<Void> reported(
      Kind kind,
      String channel,
      String secret,
      String logged,
      Supplier<CompletionStage<Delivery>> sending) {
    CompletionStage<Delivery> sent;
    try {
      sent = sending.get();
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    return sent.handle(
            (delivery, failure) -> {
              boolean ok = failure == null && delivery.ok();
              meters.adminAlert(kind, ok);
              if (!ok) {
                String reason =
                    failure != null ? HttpCalls.reason(failure, secret) : delivery.error();
                log.warn(
                    "event=admin-alert kind={} channel={} delivered=false reason=\"{}\" {}",
                    kind.label(),
                    channel,
                    reason,
                    logged);
              } else {
                log.info(
                    "event=admin-alert kind={} channel={} delivered=true {}",
                    kind.label(),
                    channel,
                    logged);
              }
              return (Void) null;
            })
        .toCompletableFuture();
  }
}
