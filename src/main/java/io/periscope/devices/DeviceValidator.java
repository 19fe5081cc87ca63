package io.periscope.devices;

import com.fasterxml.jackson.databind.JsonNode;
import com.zerodeplibs.webpush.key.PublicKeySources;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the body of {@code POST /devices}: a browser's {@code PushSubscription.toJSON()} plus a
 * display name, {@code {name, endpoint, keys: {p256dh, auth}, expirationTime?}} ({@code
 * expirationTime} is ignored).
 */
public final class DeviceValidator {
  public static final int MAX_NAME = 100;
  public static final int MAX_ENDPOINT = 2048;

  private DeviceValidator() {}

  /** What a registration says; becomes a {@link Device} once the entity gives it an id. */
  public record Subscription(String name, String endpoint, String p256dh, String auth)
      implements io.periscope.entity.JsonSerializable {}

  /**
   * @throws ValidationException listing every problem
   */
  public static Subscription validate(JsonNode body) {
    if (!body.isObject()) {
      throw new ValidationException(
          List.of(Issue.at("the body must be a JSON object {name, endpoint, keys}")));
    }
    List<Issue> issues = new ArrayList<>();
    String name = text(body.get("name"));
    if (name == null || name.isBlank())
      issues.add(Issue.at("is required: a non-empty string", "name"));
    else if (name.strip().length() > MAX_NAME)
      issues.add(Issue.at("must be at most " + MAX_NAME + " characters", "name"));
    String endpoint = text(body.get("endpoint"));
    if (endpoint == null || endpoint.length() > MAX_ENDPOINT || !httpsUrl(endpoint)) {
      issues.add(
          Issue.at(
              "must be the push service's https URL, at most " + MAX_ENDPOINT + " characters",
              "endpoint"));
    }
    JsonNode keys = body.get("keys");
    String p256dh = keys == null ? null : text(keys.get("p256dh"));
    String auth = keys == null ? null : text(keys.get("auth"));
    if (keys == null || !keys.isObject()) {
      issues.add(Issue.at("is required: {p256dh, auth}", "keys"));
    } else {
      if (!isP256Point(p256dh)) {
        issues.add(
            Issue.at(
                "must be the base64url of a 65-byte uncompressed P-256 public key",
                "keys",
                "p256dh"));
      }
      if (!hasLength(auth, 16))
        issues.add(Issue.at("must be the base64url of 16 bytes", "keys", "auth"));
    }
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new Subscription(name.strip(), endpoint, p256dh, auth);
  }

  private static String text(JsonNode node) {
    return node != null && node.isTextual() ? node.asText() : null;
  }

  private static boolean httpsUrl(String value) {
    try {
      URI uri = new URI(value);
      return "https".equalsIgnoreCase(uri.getScheme())
          && uri.getHost() != null
          && uri.getRawUserInfo() == null;
    } catch (Exception e) {
      return false;
    }
  }

  private static boolean isP256Point(String value) {
    if (!hasLength(value, 65)) return false;
    try {
      PublicKeySources.ofUncompressedBytes(VapidKeys.decode(value)).extract();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean hasLength(String base64url, int bytes) {
    if (base64url == null) return false;
    try {
      return VapidKeys.decode(base64url).length == bytes;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
