package io.periscope.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.notify.ChannelId;
import io.periscope.quiet.QuietHours;
import io.periscope.quiet.QuietValidator;
import io.periscope.source.FeedUrls;
import io.periscope.source.PageText;
import io.periscope.trust.TrustTier;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a create or replace body against the full watch schema and builds the stored watch.
 *
 * <p>Required: {@code id} (create only; on replace it comes from the path), {@code name}, {@code
 * sources}, {@code schedule}, {@code condition}, {@code threshold}. Optional: {@code channels}
 * (default none), {@code enabled} (default true), {@code weakThreshold} (absent or null means
 * none), {@code timeZone} (an IANA name; default the instance's SCHEDULE_TIME_ZONE), {@code
 * quietHours} and {@code digest} (absent: alerts go out as decided). Fields the schema does not own
 * ({@code owner}, {@code notes}, a source's {@code rationale}, anything else) are ignored.
 */
public final class WatchValidator {
  public static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  static final int MAX_NAME = 200;
  static final int MAX_CONDITION = 4000;
  public static final int MAX_SOURCES = 20;
  public static final int MAX_SOURCE_VALUE = FeedUrls.MAX_LENGTH;
  static final int MAX_CHANNELS = 20;
  static final int MAX_RECENCY_DAYS = 3650;
  static final int MAX_SELECTOR = 500;
  static final int MAX_IGNORE = 20;
  private static final Set<String> TYPES =
      Set.of(WatchSource.SEARCH, WatchSource.RSS, WatchSource.PAGE);

  private WatchValidator() {}

  /**
   * @param pathId the id from the path on replace, or null on create (then the body's id is
   *     required)
   * @param defaultZone the schedule's time zone when the body names none (SCHEDULE_TIME_ZONE)
   * @throws ValidationException listing every problem found
   */
  public static Watch validate(JsonNode body, String pathId, String accountId, ZoneId defaultZone) {
    List<Issue> issues = new ArrayList<>();
    if (body == null || !body.isObject()) {
      throw new ValidationException(
          List.of(Issue.at("the body must be a JSON object describing a watch")));
    }
    String id = pathId != null ? pathId : id(body.get("id"), issues);
    String name = requiredString(body, "name", MAX_NAME, issues);
    String condition = requiredString(body, "condition", MAX_CONDITION, issues);
    List<WatchSource> sources = sources(body.get("sources"), issues);
    String schedule = schedule(body.get("schedule"), issues);
    Double threshold = fraction(body.get("threshold"), "threshold", true, issues);
    Double weak = fraction(body.get("weakThreshold"), "weakThreshold", false, issues);
    if (threshold != null && weak != null && weak >= threshold) {
      issues.add(Issue.at("must be below threshold", "weakThreshold"));
    }
    List<String> channels = channels(body.get("channels"), issues);
    boolean enabled = enabled(body.get("enabled"), issues);
    String timeZone = timeZone(body.get("timeZone"), defaultZone, issues);
    QuietHours quietHours = QuietValidator.quietHours(body.get("quietHours"), issues);
    String digest = QuietValidator.digest(body.get("digest"), issues);
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new Watch(
        id,
        accountId,
        name,
        sources,
        schedule,
        condition,
        channels,
        threshold,
        weak,
        enabled,
        timeZone,
        quietHours,
        digest);
  }

  /**
   * {@code stored} with the body's values of the {@code fields} it may override, checked as a
   * replace would check the watch they make (a {@code weakThreshold} of null removes it). Its
   * channels are left out: what is tried so sends nothing.
   *
   * @throws ValidationException listing every problem found
   */
  public static Watch overridden(
      Watch stored, JsonNode body, Set<String> fields, ZoneId defaultZone) {
    ObjectNode merged = Json.MAPPER.valueToTree(stored.withChannels(List.of()));
    if (body != null)
      fields.forEach(
          field -> {
            if (body.has(field)) merged.set(field, body.get(field));
          });
    return validate(merged, stored.id(), stored.owner(), defaultZone);
  }

  private static String timeZone(JsonNode node, ZoneId defaultZone, List<Issue> issues) {
    if (node == null || node.isNull()) return defaultZone.getId();
    try {
      return CronExpressions.zone(node.isTextual() ? node.asText() : null).getId();
    } catch (IllegalArgumentException e) {
      issues.add(Issue.at(e.getMessage(), "timeZone"));
      return null;
    }
  }

  /**
   * The id as sent: never trimmed, since a stored id must be exactly what the client will address.
   */
  private static String id(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) {
      issues.add(Issue.at("is required", "id"));
      return null;
    }
    if (!node.isTextual() || !ID.matcher(node.asText()).matches()) {
      issues.add(Issue.at("must be 1 to 64 letters, digits, '.', '_' or '-'", "id"));
      return null;
    }
    return node.asText();
  }

  private static String requiredString(JsonNode body, String field, int max, List<Issue> issues) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      issues.add(Issue.at("is required", field));
      return null;
    }
    if (!node.isTextual()) {
      issues.add(Issue.at("must be a string", field));
      return null;
    }
    String value = node.asText().strip();
    if (value.isEmpty()) issues.add(Issue.at("must not be empty", field));
    else if (value.length() > max)
      issues.add(Issue.at("must be at most " + max + " characters", field));
    return value;
  }

  private static List<WatchSource> sources(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) {
      issues.add(Issue.at("is required", "sources"));
      return List.of();
    }
    if (!node.isArray()) {
      issues.add(Issue.at("must be an array of sources", "sources"));
      return List.of();
    }
    if (node.isEmpty()) issues.add(Issue.at("must hold at least one source", "sources"));
    if (node.size() > MAX_SOURCES)
      issues.add(Issue.at("must hold at most " + MAX_SOURCES + " sources", "sources"));
    List<WatchSource> sources = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      WatchSource s = source(node.get(i), i, issues);
      if (s != null) sources.add(s);
    }
    return sources;
  }

  private static WatchSource source(JsonNode node, int i, List<Issue> issues) {
    if (!node.isObject()) {
      issues.add(Issue.at("must be an object with type and value", "sources", i));
      return null;
    }
    int before = issues.size();
    JsonNode typeNode = node.get("type");
    String type = typeNode != null && typeNode.isTextual() ? typeNode.asText() : null;
    if (!TYPES.contains(type)) {
      issues.add(Issue.at("must be 'search', 'rss' or 'page'", "sources", i, "type"));
    }
    JsonNode valueNode = node.get("value");
    String value = valueNode != null && valueNode.isTextual() ? valueNode.asText().strip() : null;
    if (value == null || value.isEmpty()) {
      issues.add(Issue.at("must be a non-empty string", "sources", i, "value"));
    } else if (value.length() > MAX_SOURCE_VALUE) {
      issues.add(
          Issue.at("must be at most " + MAX_SOURCE_VALUE + " characters", "sources", i, "value"));
    } else if ((WatchSource.RSS.equals(type) || WatchSource.PAGE.equals(type))
        && ChannelId.httpUrl(value).isEmpty()) {
      issues.add(
          Issue.at(
              "must be an http(s) URL for "
                  + (WatchSource.RSS.equals(type) ? "an rss" : "a page")
                  + " source",
              "sources",
              i,
              "value"));
    }
    String trust = null;
    JsonNode trustNode = node.get("trust");
    if (trustNode != null && !trustNode.isNull()) {
      if (trustNode.isTextual() && TrustTier.fromWire(trustNode.asText()).isPresent()) {
        trust = trustNode.asText();
      } else {
        issues.add(Issue.at("must be one of " + TrustTier.names(), "sources", i, "trust"));
      }
    }
    Integer recency = recencyDays(node.get("recencyDays"), issues, "sources", i, "recencyDays");
    String selector = null;
    List<String> ignore = null;
    if (WatchSource.PAGE.equals(type)) {
      selector = selector(node.get("selector"), issues, "sources", i, "selector");
      ignore = ignore(node.get("ignore"), issues, "sources", i, "ignore");
    }
    return issues.size() == before
        ? new WatchSource(type, value, trust, recency, selector, ignore)
        : null;
  }

  /**
   * A page source's CSS selector: null when absent, else one jsoup parses, at most {@value
   * #MAX_SELECTOR} characters (an issue at {@code path}).
   */
  public static String selector(JsonNode node, List<Issue> issues, Object... path) {
    if (node == null || node.isNull()) return null;
    String css = node.isTextual() ? node.asText().strip() : null;
    if (css == null || css.isEmpty() || css.length() > MAX_SELECTOR) {
      issues.add(Issue.at("must be a CSS selector of 1 to " + MAX_SELECTOR + " characters", path));
      return null;
    }
    Optional<String> problem = PageText.selectorProblem(css);
    if (problem.isPresent()) {
      issues.add(Issue.at("is not a CSS selector: " + problem.get(), path));
      return null;
    }
    return css;
  }

  /** A page source's ignore selectors: null when absent, else at most {@value #MAX_IGNORE}. */
  public static List<String> ignore(JsonNode node, List<Issue> issues, Object... path) {
    if (node == null || node.isNull()) return null;
    if (!node.isArray() || node.size() > MAX_IGNORE) {
      issues.add(Issue.at("must be an array of at most " + MAX_IGNORE + " CSS selectors", path));
      return null;
    }
    List<String> selectors = new ArrayList<>();
    for (int j = 0; j < node.size(); j++) {
      Object[] at = java.util.Arrays.copyOf(path, path.length + 1);
      at[path.length] = j;
      if (!node.get(j).isTextual()) {
        issues.add(Issue.at("must be a CSS selector", at));
        continue;
      }
      String css = selector(node.get(j), issues, at);
      if (css != null && !selectors.contains(css)) selectors.add(css);
    }
    return selectors;
  }

  /**
   * A search's recency: null when absent, else a whole number of days from 1 to 3650 (an issue at
   * {@code path}).
   */
  public static Integer recencyDays(JsonNode node, List<Issue> issues, Object... path) {
    if (node == null || node.isNull()) return null;
    if (node.canConvertToExactIntegral() && node.asLong() >= 1 && node.asLong() <= MAX_RECENCY_DAYS)
      return node.asInt();
    issues.add(Issue.at("must be a whole number of days from 1 to " + MAX_RECENCY_DAYS, path));
    return null;
  }

  private static String schedule(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) {
      issues.add(Issue.at("is required", "schedule"));
      return null;
    }
    if (!node.isTextual()) {
      issues.add(Issue.at("must be a five-field cron expression string", "schedule"));
      return null;
    }
    String expression = node.asText().strip().replaceAll("\\s+", " ");
    try {
      CronExpressions.check(expression);
      return expression;
    } catch (IllegalArgumentException e) {
      issues.add(Issue.at("is not a valid schedule: " + e.getMessage(), "schedule"));
      return null;
    }
  }

  private static Double fraction(
      JsonNode node, String field, boolean required, List<Issue> issues) {
    if (node == null || node.isNull()) {
      if (required) issues.add(Issue.at("is required", field));
      return null;
    }
    if (!node.isNumber()) {
      issues.add(Issue.at("must be a number from 0 to 1", field));
      return null;
    }
    double value = node.asDouble();
    if (!(value >= 0 && value <= 1)) {
      issues.add(Issue.at("must be a number from 0 to 1", field));
      return null;
    }
    return value;
  }

  /**
   * The distinct channel identifiers of a body's {@code channels} (absent or null: none), adding an
   * issue at {@code ["channels", i]} for each that does not parse.
   */
  public static List<String> channels(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) return List.of();
    if (!node.isArray()) {
      issues.add(Issue.at("must be an array of channel identifiers", "channels"));
      return List.of();
    }
    if (node.size() > MAX_CHANNELS)
      issues.add(Issue.at("must hold at most " + MAX_CHANNELS + " channels", "channels"));
    List<String> channels = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode c = node.get(i);
      if (c.isTextual() && ChannelId.parse(c.asText()).isPresent()) {
        if (!channels.contains(c.asText())) channels.add(c.asText());
      } else {
        issues.add(
            Issue.at(
                "is not a channel identifier (telegram, telegram:<chat id>, email:<address>, "
                    + "webhook:<url>, ntfy:<url>, slack:<url>, discord:<url>, push, "
                    + "gotify:https://<token>@<server>, "
                    + "matrix:https://<token>@<homeserver>/<room id>, "
                    + "pushover:<user key>@<app token>, apprise:<url>)",
                "channels",
                i));
      }
    }
    return channels;
  }

  private static boolean enabled(JsonNode node, List<Issue> issues) {
    if (node == null || node.isNull()) return true;
    if (!node.isBoolean()) {
      issues.add(Issue.at("must be true or false", "enabled"));
      return true;
    }
    return node.asBoolean();
  }
}
