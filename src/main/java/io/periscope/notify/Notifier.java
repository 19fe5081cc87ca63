package io.periscope.notify;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;

/**
 * Sends an event alert to each of a watch's channels at once and reports one {@link Delivery} per
 * channel (per device for {@code push}), in the order the watch lists them. A channel that cannot
 * be parsed, or whose kind has no sender here, is a failed delivery; nothing is thrown.
 */
public final class Notifier {
  private final Map<ChannelId.Kind, ChannelSender> senders;
  private final Optional<PushSender> push;

  public Notifier(Map<ChannelId.Kind, ChannelSender> senders, Optional<PushSender> push) {
    this.senders = new EnumMap<>(ChannelId.Kind.class);
    this.senders.putAll(senders);
    this.push = push;
  }

  /**
   * The senders of every channel kind. {@code trusted} reaches the operator-configured Telegram
   * API; {@code guarded} (the SSRF-guarded client) the users' webhook, ntfy, Slack and Discord
   * URLs; {@code blocking} runs SMTP conversations; {@code push} delivers to registered devices
   * when there is a registry.
   */
  public static Notifier create(
      Config config,
      OkHttpClient trusted,
      OkHttpClient guarded,
      Executor blocking,
      Optional<PushSender> push) {
    Map<ChannelId.Kind, ChannelSender> senders = new EnumMap<>(ChannelId.Kind.class);
    senders.put(
        ChannelId.Kind.TELEGRAM, new TelegramSender(trusted, TelegramSettings.from(config)));
    senders.put(ChannelId.Kind.EMAIL, new EmailSender(SmtpSettings.from(config), blocking));
    senders.put(ChannelId.Kind.WEBHOOK, new WebhookSender(guarded));
    senders.put(ChannelId.Kind.NTFY, new NtfySender(guarded));
    senders.put(ChannelId.Kind.SLACK, new SlackSender(guarded));
    senders.put(ChannelId.Kind.DISCORD, new DiscordSender(guarded));
    return new Notifier(senders, push);
  }

  /**
   * Completes (never exceptionally) when every channel has an answer; duplicates are sent to once.
   */
  public CompletionStage<List<Delivery>> send(List<String> channels, Alert alert) {
    List<CompletableFuture<List<Delivery>>> pending = new ArrayList<>();
    for (String id : channels.stream().distinct().toList()) pending.add(sendOne(id, alert));
    return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
        .thenApply(done -> pending.stream().flatMap(p -> p.join().stream()).toList());
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
