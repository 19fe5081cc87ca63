package io.periscope.feedback;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How often a watch is right, as its owner's feedback says, over the runs of the last {@code days}
 * days (by when each run started): the feedback given per kind, the items marked per label, and,
 * where at least {@link #MIN_LABELS} labels allow it, precision and recall.
 *
 * <p>Precision is the share of rated alerts (runs that alerted or weakly alerted, given {@code
 * useful} or {@code wrong}) marked {@code useful}. Recall is the share of relevant items (judged
 * items marked {@code relevant}, and each item a {@code missed} feedback names) that alerted: their
 * run alerted citing them. Each rests on the labels it counts; its value is null below {@link
 * #MIN_LABELS}.
 */
public record Quality(
    int days,
    Instant from,
    Map<String, Integer> feedback,
    Map<String, Integer> items,
    Share precision,
    Share recall) {

  /** The windows {@code GET /watches/:id/quality} answers, in days. */
  public static final List<Integer> WINDOWS = List.of(30, 90);

  /** Labels a share needs before it is given: fewer say too little to be worth a number. */
  public static final int MIN_LABELS = 5;

  /**
   * {@code hits} of {@code labels}; {@code value} is their ratio, null with fewer than {@link
   * #MIN_LABELS} labels.
   */
  public record Share(@JsonInclude(JsonInclude.Include.ALWAYS) Double value, int labels, int hits) {
    static Share of(int hits, int labels) {
      return new Share(labels < MIN_LABELS ? null : (double) hits / labels, labels, hits);
    }
  }

  /** The quality over the runs started in the {@code days} days up to {@code now}. */
  public static Quality of(List<Feedback> given, Instant now, int days) {
    Instant from = now.minus(Duration.ofDays(days));
    Map<String, Integer> kinds = new LinkedHashMap<>();
    Feedback.KINDS.forEach(k -> kinds.put(k, 0));
    Map<String, Integer> labels = new LinkedHashMap<>();
    Feedback.LABELS.forEach(l -> labels.put(l, 0));
    int rated = 0, useful = 0, relevant = 0, alerted = 0;
    for (Feedback f : given) {
      Instant ran = f.run() != null && f.run().startedAt() != null ? f.run().startedAt() : f.at();
      if (ran.isBefore(from) || ran.isAfter(now)) continue;
      kinds.merge(f.kind(), 1, Integer::sum);
      if (f.alerted() && !Feedback.MISSED.equals(f.kind())) {
        rated++;
        if (Feedback.USEFUL.equals(f.kind())) useful++;
      }
      Set<String> relevantKeys = new HashSet<>();
      for (Feedback.ItemLabel item : f.items()) {
        labels.merge(item.label(), 1, Integer::sum);
        if (Feedback.RELEVANT.equals(item.label())) {
          relevantKeys.add(item.key());
          relevant++;
          if (item.alerted()) alerted++;
        }
      }
      // a missed item is relevant and did not alert, counted once if also marked relevant
      Feedback.MissedItem missed = f.missedItem();
      if (missed != null && (missed.key() == null || !relevantKeys.contains(missed.key())))
        relevant++;
    }
    return new Quality(
        days, from, kinds, labels, Share.of(useful, rated), Share.of(alerted, relevant));
  }

  /** The quality over each of {@link #WINDOWS}. */
  public static List<Quality> windows(List<Feedback> given, Instant now) {
    return WINDOWS.stream().map(days -> of(given, now, days)).toList();
  }
}
