package io.periscope.notify;

import io.periscope.crypto.Sha256;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * An event alert: a watch's condition was judged met on some fresh items. {@link Strength#WEAK} is
 * the unconfirmed alert sent when the confidence reached {@code weakThreshold} but not {@code
 * threshold}. {@code runId} is the run that judged it (a test send's own id for a {@link #test}
 * alert): it makes {@link #id()}, the same on every retry of the alert.
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
    String runId) {

  public enum Strength {
    CONFIRMED,
    WEAK,
    /** A test send (POST /channels/test): nothing was judged, only the channel is tried. */
    TEST,
    /**
     * An operational notice about the watch itself (it keeps failing, it recovered): nothing was
     * judged; the summary's first line completes the headline, its other lines are the body.
     */
    NOTICE
  }

  /** Operational: about the service or the watch, not an event; never held back (quiet hours). */
  public boolean operational() {
    return strength == Strength.NOTICE;
  }

  /**
   * The clearly marked alert of a test send to {@code accountId}'s channels, for the watch {@code
   * watchId} when it tests a watch's channels ({@code null} otherwise); a new id every time.
   */
  public static Alert test(String accountId, String watchId, String watchName, Instant at) {
    return new Alert(
        accountId,
        watchId,
        watchName == null || watchName.isBlank() ? "Periscope" : watchName,
        Strength.TEST,
        1,
        "This is a test alert: the channel works. No condition was judged.",
        List.of(),
        "",
        at,
        "test-" + java.util.UUID.randomUUID());
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
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(runId, "runId");
    owner = owner == null ? "" : owner;
    watchId = watchId == null ? "" : watchId;
    watchName = watchName == null || watchName.isBlank() ? watchId : watchName;
    summary = summary == null ? "" : summary;
    evidence = evidence == null ? List.of() : List.copyOf(evidence);
    condition = condition == null ? "" : condition;
  }

  /**
   * The alert's stable id, the same for every attempt to deliver it and different for every run:
   * receivers de-duplicate by it (a webhook's {@code webhook-id}, ntfy's sequence id, an e-mail's
   * {@code Message-ID}). It is {@code alert_} and 22 base64url characters of a hash of owner, watch
   * and run, so it fits every header and leaks none of them.
   */
  public String id() {
    byte[] hash = Sha256.of(owner + "/" + watchId + "/" + runId);
    return "alert_" + Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 22);
  }

  /** The confidence as a whole percentage, as every format shows it. */
  public long percent() {
    return Math.round(Math.max(0, Math.min(1, confidence)) * 100);
  }
}
