package io.periscope.notify;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An event alert: a watch's condition was judged met on some fresh items. {@link Strength#WEAK} is
 * the unconfirmed alert sent when the confidence reached {@code weakThreshold} but not {@code
 * threshold}.
 *
 * <p>{@code id} is the alert's stable identity: the id of the run that decided it, the same on
 * every attempt to deliver it, so a receiver that keeps ids can tell a repeat (docs/runs.md,
 * "Deliveries"). An alert made without a run (a test send) needs an id of its own.
 */
public record Alert(
    String owner,
    String watchId,
    String watchName,
    Strength strength,
    double confidence,
    String summary,
    List<Evidence> evidence,
    String condition,
    Instant at,
    String id) {

  public enum Strength {
    CONFIRMED,
    WEAK
  }

  /** An item the verdict cites. */
  public record Evidence(String title, String url) {
    public Evidence {
      title = title == null ? "" : title;
      url = url == null ? "" : url;
    }
  }

  public Alert {
    Objects.requireNonNull(strength, "strength");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(at, "at");
    owner = owner == null ? "" : owner;
    watchId = watchId == null ? "" : watchId;
    watchName = watchName == null || watchName.isBlank() ? watchId : watchName;
    summary = summary == null ? "" : summary;
    evidence = evidence == null ? List.of() : List.copyOf(evidence);
    condition = condition == null ? "" : condition;
  }

  /** The confidence as a whole percentage, as every format shows it. */
  public long percent() {
    return Math.round(Math.max(0, Math.min(1, confidence)) * 100);
  }
}
