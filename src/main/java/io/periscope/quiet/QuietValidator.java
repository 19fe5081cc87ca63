package io.periscope.quiet;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Issue;
import java.time.ZoneId;
import java.util.List;

/**
 * Checks a watch body's {@code quietHours} and {@code digest}, adding an issue naming the field
 * ({@code quietHours.start}, {@code digest}, ...) for each bad value.
 */
public final class QuietValidator {
  private QuietValidator() {}

  /** The quiet hours of {@code node}: null when absent or null. */
  public static QuietHours quietHours(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) return null;
    if (!node.isObject()) {
      issues.add(
          Issue.at("must be an object with start, end and an optional timeZone", "quietHours"));
      return null;
    }
    int before = issues.size();
    String start = clockTime(node.get("start"), "start", issues);
    String end = clockTime(node.get("end"), "end", issues);
    if (start != null && start.equals(end))
      issues.add(Issue.at("must differ from start", "quietHours", "end"));
    String zone = null;
    JsonNode zoneNode = node.get("timeZone");
    if (zoneNode != null && !zoneNode.isNull()) {
      if (zoneNode.isTextual() && ZoneId.getAvailableZoneIds().contains(zoneNode.asText()))
        zone = zoneNode.asText();
      else
        issues.add(
            Issue.at("must be an IANA time zone such as Europe/Berlin", "quietHours", "timeZone"));
    }
    return issues.size() == before ? new QuietHours(start, end, zone) : null;
  }

  private static String clockTime(JsonNode node, String field, List<Issue> issues) {
    if (node == null || node.isNull()) {
      issues.add(Issue.at("is required", "quietHours", field));
      return null;
    }
    if (!node.isTextual() || !QuietHours.CLOCK_TIME.matcher(node.asText()).matches()) {
      issues.add(Issue.at("must be a 24-hour time HH:MM, such as 22:00", "quietHours", field));
      return null;
    }
    return node.asText();
  }

  /** The digest of {@code node}: null when absent, null or {@code none}. */
  public static String digest(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) return null;
    Digest digest = node.isTextual() ? Digest.fromWire(node.asText()).orElse(null) : null;
    if (digest == null) {
      issues.add(Issue.at("must be one of " + Digest.names(), "digest"));
      return null;
    }
    return digest == Digest.NONE ? null : digest.wire();
  }
}
