package io.periscope.history;

import io.periscope.watch.RunRecord;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which runs a replay shows: started in [{@code since}, {@code until}) (null: unbounded), and for
 * each other criterion given, one of its values (an empty set: any). {@code deliveries} are states
 * of a delivery of the run ({@code failed}, {@code pending}, {@code held}, {@code delivered}),
 * {@code channels} channel kinds a delivery went to ({@code email}, {@code telegram}, …), {@code
 * grep} a text found, ignoring case, in the summary, reasoning, error or a cited item's title,
 * {@code runId} one run.
 */
public record RunFilter(
    Instant since,
    Instant until,
    Set<String> outcomes,
    Set<String> triggers,
    Set<String> deliveries,
    Set<String> channels,
    String grep,
    String runId)
    implements Predicate<RunRecord> {
  public static final RunFilter ALL =
      new RunFilter(null, null, Set.of(), Set.of(), Set.of(), Set.of(), null, null);

  public RunFilter {
    outcomes = Set.copyOf(outcomes);
    triggers = Set.copyOf(triggers);
    deliveries = Set.copyOf(deliveries);
    channels = Set.copyOf(channels);
    grep = grep == null || grep.isEmpty() ? null : grep.toLowerCase(Locale.ROOT);
  }

  /** Whether a run started before {@code since}. */
  boolean before(RunRecord r) {
    return since != null && r.startedAt().isBefore(since);
  }

  /** Whether a run started at or after {@code until}. */
  boolean after(RunRecord r) {
    return until != null && !r.startedAt().isBefore(until);
  }

  @Override
  public boolean test(RunRecord r) {
    return !before(r)
        && !after(r)
        && (runId == null || runId.equals(r.runId()))
        && (outcomes.isEmpty() || outcomes.contains(r.outcome()))
        && (triggers.isEmpty() || triggers.contains(r.trigger()))
        && (deliveries.isEmpty()
            || deliveriesOf(r).stream().anyMatch(d -> deliveries.contains(d.state())))
        && (channels.isEmpty()
            || deliveriesOf(r).stream().anyMatch(d -> channels.contains(kind(d.channel()))))
        && (grep == null || mentions(r));
  }

  static java.util.List<RunRecord.DeliveryRecord> deliveriesOf(RunRecord r) {
    return r.deliveries() == null ? java.util.List.of() : r.deliveries();
  }

  /** A channel's kind: {@code email} of {@code email:ann@example.com}. */
  static String kind(String channel) {
    int colon = channel.indexOf(':');
    return (colon < 0 ? channel : channel.substring(0, colon)).toLowerCase(Locale.ROOT);
  }

  private boolean mentions(RunRecord r) {
    if (contains(r.summary()) || contains(r.reasoning()) || contains(r.error())) return true;
    if (r.evidence() != null && r.evidence().stream().anyMatch(e -> contains(e.title())))
      return true;
    return r.judged() != null
        && r.judged().items() != null
        && r.judged().items().stream().anyMatch(i -> contains(i.title()));
  }

  private boolean contains(String text) {
    return text != null && text.toLowerCase(Locale.ROOT).contains(grep);
  }
}
