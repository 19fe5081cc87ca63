package io.periscope.watch;

import io.periscope.entity.JsonSerializable;
import io.periscope.notify.Alert;
import java.time.Instant;
import java.util.List;

/**
 * The alert of run {@code runId}, decided inside its watch's quiet hours or for a digest: held for
 * {@code channels} until {@code releaseAt}, when it goes out grouped with the others held then.
 */
public record HeldAlert(String runId, List<String> channels, Alert alert, Instant releaseAt)
    implements JsonSerializable {
  public HeldAlert {
    channels = List.copyOf(channels);
  }
}
