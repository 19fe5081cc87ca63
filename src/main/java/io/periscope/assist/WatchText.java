package io.periscope.assist;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.notify.ChannelId;
import io.periscope.watch.Watch;
import java.util.stream.Collectors;

/** How a watch appears in a prompt. */
final class WatchText {
  /** What every assistance system prompt says the service is, after "You … a watch". */
  static final String SERVICE =
      "for a service that watches the web for a person and alerts them when something they care"
          + " about happens. Each run of a watch collects the new items of its sources, and a model"
          + " judges whether they show that the watch's condition is met.";

  private WatchText() {}

  /**
   * The fields a model may read and revise, by their interface names, as indented JSON: name,
   * condition, sources, schedule, timeZone (read only), threshold, weakThreshold (null when none)
   * and enabled. Never the id, the owner or the channels: a channel's target can be a credential (a
   * Slack or Discord webhook URL) and stays out of every prompt.
   */
  static String fields(Watch watch) {
    ObjectNode node =
        Json.MAPPER
            .createObjectNode()
            .put("name", watch.name())
            .put("condition", watch.condition());
    node.set("sources", Json.MAPPER.valueToTree(watch.sources()));
    node.put("schedule", watch.schedule())
        .put("timeZone", watch.timeZone())
        .put("threshold", watch.threshold());
    if (watch.weakThreshold() == null) node.putNull("weakThreshold");
    else node.put("weakThreshold", watch.weakThreshold());
    node.put("enabled", watch.enabled());
    return pretty(node);
  }

  /**
   * The kinds of the watch's channels (telegram, email, webhook…), never their targets; "none"
   * without any.
   */
  static String channelKinds(Watch watch) {
    String kinds =
        watch.channels().stream()
            .map(ChannelId::kindName)
            .distinct()
            .collect(Collectors.joining(", "));
    return kinds.isEmpty() ? "none" : kinds;
  }

  static String pretty(JsonNode node) {
    try {
      return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always writes", e);
    }
  }
}
