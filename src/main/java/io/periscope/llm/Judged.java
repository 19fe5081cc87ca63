package io.periscope.llm;

import io.periscope.entity.JsonSerializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a verdict looked at: the items its prompt listed, in order, and the fresh items it did not
 * (set aside by key, with the reason). Kept with the run that asked, for the person who asks why a
 * run did or did not alert; a dry run or a backtest answers the same shape.
 */
public record Judged(List<JudgedItem> items, List<SetAside> setAside) implements JsonSerializable {
  /** Characters of an item's text kept with its run; the prompt may have carried more. */
  public static final int EXCERPT_CHARS = 1_000;

  /** Set-aside items a run lists by key; a feed rarely lists more at once. */
  public static final int MAX_SET_ASIDE = 100;

  /** Published too long before its source's baseline or recency window: seen unjudged. */
  public static final String OLD_NEWS = "old-news";

  /** Beyond the items one verdict judges: left unseen for a later run. */
  public static final String PAST_BOUND = "past-bound";

  /** An item not put before the model, and why ({@link #OLD_NEWS}, {@link #PAST_BOUND}). */
  public record SetAside(String key, String reason) implements JsonSerializable {}

  public Judged {
    items = items == null ? List.of() : List.copyOf(items);
    setAside = setAside == null ? List.of() : List.copyOf(setAside);
  }

  /**
   * What the pipeline knows of a listed item beyond the prompt's text: its key, its source ({@code
   * type:value}) and its publication time as collected (the prompt carries it only as text).
   */
  public record Origin(String key, String source, Instant published) {}

  /**
   * The items {@code prompt} listed, each with the excerpt of the text it carried; {@code origins}
   * gives each listed item's {@link Origin}, in the prompt's order; {@code cited} the URLs the
   * verdict cites (empty when there was no verdict).
   */
  public static List<JudgedItem> listed(
      VerdictPrompt prompt, List<Origin> origins, Set<String> cited) {
    List<VerdictPrompt.Candidate> listed = prompt.judged();
    List<JudgedItem> items = new ArrayList<>(listed.size());
    for (int i = 0; i < listed.size(); i++) {
      VerdictPrompt.Candidate c = listed.get(i);
      Origin origin = origins.get(i);
      items.add(
          new JudgedItem(
              origin.key(),
              c.title(),
              c.url(),
              origin.source(),
              c.trust(),
              origin.published(),
              Verdict.bounded(prompt.carried(i), EXCERPT_CHARS),
              c.url() != null && cited.contains(c.url())));
    }
    return items;
  }
}
