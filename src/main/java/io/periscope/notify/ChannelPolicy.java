package io.periscope.notify;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Which of an owner's channels reach only what the owner may reach (the operator's Telegram chats,
 * other people's mailboxes). Checked when a watch is saved and again before every delivery, so a
 * permission taken back stops the deliveries it covered.
 */
@FunctionalInterface
public interface ChannelPolicy {
  /**
   * Why {@code owner} may not use each refused channel, by its identifier as the watch lists it;
   * empty when every channel may be used. Identifiers that do not parse are not judged here.
   */
  CompletionStage<Map<String, String>> refusals(String owner, List<String> channels);
}
