package io.periscope.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.periscope.metrics.RegisteredMeters;
import java.util.List;

/**
 * Alerts sent and their deliveries by channel type ({@code webhook}, {@code ntfy}...; never the
 * channel's address) and result, and the operator's admin alerts by kind. A label is a channel
 * kind, a result or an admin alert kind: closed sets.
 */
public final class NotifyMeters {
  private final MeterRegistry registry;
  private final RegisteredMeters<Counter> alerts;
  private final RegisteredMeters<Counter> deliveries;

  public NotifyMeters(MeterRegistry registry) {
    this.registry = registry;
    this.alerts =
        new RegisteredMeters<>(
            tags ->
                Counter.builder("periscope.alerts")
                    .description("Alerts of runs sent to their channels, by result")
                    .tag("result", tags.get(0))
                    .register(registry));
    this.deliveries =
        new RegisteredMeters<>(
            tags ->
                Counter.builder("periscope.deliveries")
                    .description(
                        "Deliveries of alerts, one per channel (per device for push), by result")
                    .tag("channel", tags.get(0))
                    .tag("result", tags.get(1))
                    .register(registry));
  }

  MeterRegistry registry() {
    return registry;
  }

  /**
   * One alert went out with {@code deliveries}: the alert counts as {@code delivered} when every
   * delivery arrived, {@code partial} when some did, {@code failed} when none did.
   */
  void sent(List<Delivery> deliveries) {
    long ok = deliveries.stream().filter(Delivery::ok).count();
    String result = ok == deliveries.size() ? "delivered" : ok == 0 ? "failed" : "partial";
    alerts.get(result).increment();
    for (Delivery d : deliveries)
      this.deliveries.get(channelType(d.channel()), d.ok() ? "delivered" : "failed").increment();
  }

  /** An admin alert of {@code kind} was handled: sent to the admin chat or only logged. */
  void adminAlert(AdminAlerts.Kind kind, boolean delivered) {
    Counter.builder("periscope.admin.alerts")
        .description("Operational alerts to the admin chat, by kind and whether it arrived")
        .tag("kind", kind.label())
        .tag("delivered", Boolean.toString(delivered))
        .register(registry)
        .increment();
  }

  static String channelType(String channel) {
    return ChannelId.kindName(channel);
  }
}
