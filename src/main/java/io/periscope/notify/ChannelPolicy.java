package io.periscope.notify;

import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.util.ArrayList;
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
  CompletionStage<Map<String, String>> refusals(String accountId, List<String> channels);

  /**
   * Fails with a {@link ValidationException} naming each refused channel at {@code ["channels",
   * i]}, its index in {@code channels}, as a watch's or a test send's body lists them.
   */
  default CompletionStage<Void> require(String accountId, List<String> channels) {
    return refusals(accountId, channels)
        .thenAccept(
            refused -> {
              List<Issue> issues = new ArrayList<>();
              for (int i = 0; i < channels.size(); i++) {
                String why = refused.get(channels.get(i));
                if (why != null) issues.add(Issue.at(why, "channels", i));
              }
              if (!issues.isEmpty()) throw new ValidationException(issues);
            });
  }
}
