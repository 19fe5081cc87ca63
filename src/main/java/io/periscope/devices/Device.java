package io.periscope.devices;

import io.periscope.entity.JsonSerializable;
import java.net.URI;
import java.time.Instant;

/**
 * A registered Web Push subscription of one owner: the push service's {@code endpoint} (an https
 * capability URL) and the browser's keys, {@code p256dh} (its P-256 public key) and {@code auth} (a
 * 16-byte secret), both base64url. Only {@link View} leaves the service: endpoint and keys are the
 * subscription's secrets.
 */
public record Device(
    String id, String name, String endpoint, String p256dh, String auth, Instant registeredAt)
    implements JsonSerializable {

  /**
   * A device as its owner sees it: the push service's host instead of the endpoint, never the keys.
   */
  public record View(String id, String name, String pushService, Instant registeredAt)
      implements JsonSerializable {}

  public View view() {
    return new View(id, name, URI.create(endpoint).getHost(), registeredAt);
  }
}
