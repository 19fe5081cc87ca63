package io.periscope.watches;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.periscope.config.Settings;
import io.periscope.notify.ChannelId;
import io.periscope.notify.ChannelPolicy;
import io.periscope.watch.WatchSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * What this instance cannot serve in a watch, said before it is saved: a search source without a
 * usable search key, an e-mail channel without SMTP, a Telegram channel without a bot, a channel
 * its owner may not use yet, and no channel at all. A warning never refuses a save by itself (the
 * interface's create and replace stand as specified); the web client asks the person to acknowledge
 * each before it saves.
 */
public final class WatchWarnings {
  /** One warning; {@code source} or {@code channel} is the index of what it is about. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Warning(String kind, String message, Integer source, Integer channel) {}

  public static final String NO_SEARCH_KEY = "no-search-key";
  public static final String NO_MAIL = "no-mail";
  public static final String NO_TELEGRAM = "no-telegram";
  public static final String NEEDS_PERMISSION = "needs-permission";
  public static final String NO_CHANNELS = "no-channels";

  private final Settings.Integrations integrations;
  private final Supplier<CompletionStage<Boolean>> searchReady;
  private final ChannelPolicy policy;

  /**
   * @param searchReady whether a search provider and a usable search key exist now (the pool
   *     changes at runtime: asked each time)
   */
  public WatchWarnings(
      Settings.Integrations integrations,
      Supplier<CompletionStage<Boolean>> searchReady,
      ChannelPolicy policy) {
    this.integrations = integrations;
    this.searchReady = searchReady;
    this.policy = policy;
  }

  /**
   * The warnings about {@code sources} and {@code channels} of {@code owner}'s watch; {@code
   * channels} empty when the caller has none to judge (a draft proposes no channels), {@code null}
   * leaves them out.
   */
  public CompletionStage<List<Warning>> of(
      String accountId, List<WatchSource> sources, List<String> channels) {
    boolean searches =
        sources != null && sources.stream().anyMatch(s -> WatchSource.SEARCH.equals(s.type()));
    CompletionStage<Boolean> search =
        searches ? searchReady.get() : CompletableFuture.completedFuture(true);
    CompletionStage<Map<String, String>> refused =
        channels == null || channels.isEmpty()
            ? CompletableFuture.completedFuture(Map.of())
            : policy.refusals(accountId, channels);
    return search.thenCombine(
        refused,
        (searchOk, refusals) -> {
          List<Warning> warnings = new ArrayList<>();
          if (!searchOk)
            for (int i = 0; i < sources.size(); i++)
              if (WatchSource.SEARCH.equals(sources.get(i).type()))
                warnings.add(
                    new Warning(
                        NO_SEARCH_KEY,
                        "this instance has no usable search key: this search fails on every run"
                            + " until an administrator adds one",
                        i,
                        null));
          if (channels == null) return warnings;
          if (channels.isEmpty())
            warnings.add(new Warning(NO_CHANNELS, "this watch will not notify anyone", null, null));
          for (int i = 0; i < channels.size(); i++) {
            String id = channels.get(i);
            Optional<ChannelId.Kind> kind = ChannelId.parse(id).map(ChannelId::kind);
            if (kind.isEmpty()) continue;
            if (kind.get() == ChannelId.Kind.EMAIL && !integrations.email())
              warnings.add(
                  new Warning(
                      NO_MAIL,
                      "this instance sends no e-mail (no SMTP): this channel delivers nothing",
                      null,
                      i));
            else if (kind.get() == ChannelId.Kind.TELEGRAM && !integrations.telegram())
              warnings.add(
                  new Warning(
                      NO_TELEGRAM,
                      "this instance has no Telegram bot: this channel delivers nothing",
                      null,
                      i));
            else if (refusals.containsKey(id))
              warnings.add(new Warning(NEEDS_PERMISSION, refusals.get(id), null, i));
          }
          return warnings;
        });
  }
}
