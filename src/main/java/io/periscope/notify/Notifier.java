package io.periscope.notify;

import com.typesafe.config.Config;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends an event alert to each of a watch's channels at once and reports one {@link Delivery} per
 * channel (per device for {@code push}), in the order the watch lists them. A channel that cannot
 * be parsed, or whose kind has no sender here, is a failed delivery; nothing is thrown.
 */
public final class Notifier {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);
  private static final int REMEMBERED_REFUSALS = 10_000;
  private static final int REMEMBERED_DELIVERIES = 100_000;

  private final Map<ChannelId.Kind, ChannelSender> senders;
  private final Optional<PushSender> push;
  private final ChannelPolicy policy;
  private final FixedWindowRateLimiter perAccount;
  private final AdminAlerts alerts;

  /**
   * The refusals the operator was told about on this node: each once ({@code owner/watch/channel}).
   */
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  /**
   * The deliveries ({@code alert/channel}) this node counted against their owner's hourly limit: a
   * retry is the same delivery, so a dead channel's retries do not use up the owner's others.
   */
  private final Set<String> counted = ConcurrentHashMap.newKeySet();

  private final NotifyMeters meters;

  /** Opens a stored (sealed) channel identifier; throws IllegalStateException when it cannot. */
  private final UnaryOperator<String> open;

  /** A notifier of channels stored in plain text (tests, the operator's own). */
  public Notifier(
      Map<ChannelId.Kind, ChannelSender> senders,
      Optional<PushSender> push,
      ChannelPolicy policy,
      FixedWindowRateLimiter perAccount,
      AdminAlerts alerts,
      NotifyMeters meters) {
    this(senders, push, policy, perAccount, alerts, meters, UnaryOperator.identity());
  }

  /**
   * @param open opens a channel identifier as stored (its credential sealed) for sending; the
   *     deliveries name the channel as stored
   * @param policy refuses the channels an owner may not use: each refusal is that channel's failed
   *     delivery, and the operator hears of it once
   * @param perAccount deliveries an owner's watches may make in a window; past it they fail
   */
  public Notifier(
      Map<ChannelId.Kind, ChannelSender> senders,
      Optional<PushSender> push,
      ChannelPolicy policy,
      FixedWindowRateLimiter perAccount,
      AdminAlerts alerts,
      NotifyMeters meters,
      UnaryOperator<String> open) {
    this.meters = meters;
    this.open = open;
    this.senders = new EnumMap<>(ChannelId.Kind.class);
    this.senders.putAll(senders);
    this.push = push;
    this.policy = policy;
    this.perAccount = perAccount;
    this.alerts = alerts;
  }

  /**
   * The senders of every channel kind. {@code trusted} reaches the operator-configured Telegram and
   * Pushover APIs; {@code guarded} (the SSRF-guarded client) the users' webhook, ntfy, Slack,
   * Discord, Gotify, Matrix and Apprise URLs; {@code blocking} runs SMTP conversations; {@code
   * push} delivers to registered devices when there is a registry; webhooks are signed with {@code
   * webhookSecrets}.
   */
  public static Notifier create(
      Config config,
      OkHttpClient trusted,
      OkHttpClient guarded,
      Executor blocking,
      Optional<PushSender> push,
      WebhookSecrets webhookSecrets,
      ChannelPolicy policy,
      AdminAlerts alerts,
      NotifyMeters meters,
      UnaryOperator<String> open) {
    FixedWindowRateLimiter perAccount =
        new FixedWindowRateLimiter(
                config.getInt("periscope.rate-limits.notifications-per-owner-per-hour"),
                Duration.ofHours(1),
                Clock.systemUTC())
            .counted(meters.registry(), "notifications");
    return new Notifier(
        senders(config, trusted, guarded, blocking, webhookSecrets),
        push,
        policy,
        perAccount,
        alerts,
        meters,
        open);
  }

  /**
   * The sender of each channel kind but {@code push}, as {@link #create} describes them; the
   * operator's own channels (ADMIN_CHANNELS) pass the trusted client as {@code guarded}.
   */
  public static Map<ChannelId.Kind, ChannelSender> senders(
      Config config,
      OkHttpClient trusted,
      OkHttpClient guarded,
      Executor blocking,
      WebhookSecrets webhookSecrets) {
    Map<ChannelId.Kind, ChannelSender> senders = new EnumMap<>(ChannelId.Kind.class);
    senders.put(
        ChannelId.Kind.TELEGRAM, new TelegramSender(trusted, TelegramSettings.from(config)));
    senders.put(ChannelId.Kind.EMAIL, new EmailSender(SmtpSettings.from(config), blocking));
    senders.put(
        ChannelId.Kind.WEBHOOK, new WebhookSender(guarded, webhookSecrets, Clock.systemUTC()));
    senders.put(ChannelId.Kind.NTFY, new NtfySender(guarded));
    senders.put(ChannelId.Kind.SLACK, new SlackSender(guarded));
    senders.put(ChannelId.Kind.DISCORD, new DiscordSender(guarded));
    senders.put(ChannelId.Kind.GOTIFY, new GotifySender(guarded));
    senders.put(ChannelId.Kind.MATRIX, new MatrixSender(guarded));
    senders.put(ChannelId.Kind.APPRISE, new AppriseSender(guarded));
    senders.put(
        ChannelId.Kind.PUSHOVER,
        new PushoverSender(trusted, config.getString("periscope.pushover.api-base-url")));
    return senders;
  }

  /**
   * Completes (never exceptionally) when every channel has an answer; duplicates are sent to once.
   * The channels are as stored: each is opened to send to, and its deliveries name it as stored.
   */
  public CompletionStage<List<Delivery>> send(List<String> channels, Alert alert) {
    List<String> distinct = channels.stream().distinct().toList();
    Map<String, String> stored = new java.util.LinkedHashMap<>();
    Map<String, List<Delivery>> byChannel = new java.util.HashMap<>();
    for (String id : distinct) {
      try {
        stored.putIfAbsent(open.apply(id), id);
      } catch (IllegalStateException e) {
        byChannel.put(
            id,
            List.of(
                Delivery.failed(
                    id,
                    "not sent: the channel's credential is sealed with a key no longer"
                        + " configured")));
      }
    }
    return sendOpened(List.copyOf(stored.keySet()), alert)
        .thenApply(
            sent -> {
              for (Delivery d : sent) {
                String id = stored.getOrDefault(d.channel(), d.channel());
                byChannel.computeIfAbsent(id, c -> new ArrayList<>()).add(d.withChannel(id));
              }
              return distinct.stream()
                  .flatMap(id -> byChannel.getOrDefault(id, List.of()).stream())
                  .toList();
            });
  }

  private CompletionStage<List<Delivery>> sendOpened(List<String> distinct, Alert alert) {
    return policy
        .refusals(alert.owner(), distinct)
        .handle(
            (refused, unknown) -> {
              if (unknown != null) {
                // unknown permissions send nothing: the run records why, the next one tries again
                log.warn("event=channel-policy-unavailable owner={}", alert.owner());
                return CompletableFuture.completedFuture(
                    distinct.stream()
                        .map(
                            id ->
                                Delivery.retryable(
                                    id,
                                    "not sent: the channel's permission could not be checked",
                                    null))
                        .toList());
              }
              List<CompletableFuture<List<Delivery>>> pending = new ArrayList<>();
              for (String id : distinct) pending.add(permitted(id, alert, refused.get(id)));
              return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                  .thenApply(done -> pending.stream().flatMap(p -> p.join().stream()).toList());
            })
        .thenCompose(stage -> stage)
        .whenComplete(
            (deliveries, failure) -> {
              if (deliveries != null) meters.sent(deliveries);
            });
  }

  /** Sends to the channel unless the policy refused it ({@code refusal}) or the owner is over. */
  private CompletableFuture<List<Delivery>> permitted(String id, Alert alert, String refusal) {
    if (refusal != null) {
      reportOnce(id, alert, refusal);
      return failed(id, "refused: " + refusal);
    }
    String delivery = alert.id() + "/" + id;
    if (!counted.contains(delivery)) {
      FixedWindowRateLimiter.Decision quota = perAccount.acquire(alert.owner());
      if (!quota.allowed()) {
        return CompletableFuture.completedFuture(
            List.of(
                Delivery.retryable(
                    id,
                    "not sent: the owner's watches sent their notifications for this hour",
                    Duration.ofSeconds(quota.retryAfterSeconds()))));
      }
      if (counted.size() >= REMEMBERED_DELIVERIES) counted.clear();
      counted.add(delivery);
    }
    return sendOne(id, alert);
  }

  /**
   * A watch saved before the rules refused one of its channels keeps alerting its others; the
   * operator hears once per node which channel it was, so it does not go quiet unseen.
   */
  private void reportOnce(String id, Alert alert, String refusal) {
    if (reported.size() >= REMEMBERED_REFUSALS) reported.clear();
    if (reported.add(alert.owner() + "/" + alert.watchId() + "/" + id)) {
      alerts.alert(
          AdminAlerts.Kind.CHANNEL_REFUSED,
          alert.owner(),
          alert.watchId(),
          ChannelId.kindName(id) + " channel refused: " + refusal);
    }
  }

  private CompletableFuture<List<Delivery>> sendOne(String id, Alert alert) {
    Optional<ChannelId> channel = ChannelId.parse(id);
    if (channel.isEmpty()) return failed(id, "unknown channel");
    if (channel.get().kind() == ChannelId.Kind.PUSH) {
      return push.map(p -> guarded(id, null, () -> p.send(alert)))
          .orElseGet(() -> failed(id, "push is not configured"));
    }
    ChannelSender sender = senders.get(channel.get().kind());
    if (sender == null) {
      return failed(
          id,
          channel.get().kind().name().toLowerCase(java.util.Locale.ROOT) + " is not configured");
    }
    return guarded(
        id, channel.get().target(), () -> sender.send(channel.get(), alert).thenApply(List::of));
  }

  /**
   * A sender is not supposed to fail, but one that does must not take the other channels down with
   * it.
   */
  private static CompletableFuture<List<Delivery>> guarded(
      String id, String secret, Supplier<CompletionStage<List<Delivery>>> send) {
    try {
      return send.get()
          .toCompletableFuture()
          .exceptionally(
              e -> List.of(Delivery.failed(id, "failed: " + HttpCalls.reason(e, secret))));
    } catch (RuntimeException e) {
      return failed(id, "failed: " + HttpCalls.reason(e, secret));
    }
  }

  private static CompletableFuture<List<Delivery>> failed(String id, String reason) {
    return CompletableFuture.completedFuture(List.of(Delivery.failed(id, reason)));
  }
}
