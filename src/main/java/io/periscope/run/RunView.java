package io.periscope.run;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.periscope.notify.ChannelMask;
import io.periscope.watch.RunRecord;

/**
 * A run as the interface answers it — the run result of run-now and run-all, and each item of run
 * history: the record's fields, flat, with the watch it belongs to, its deliveries' channels
 * masked; lean (without its judged items) but where one run is asked for whole.
 */
public record RunView(String watchId, @JsonUnwrapped RunRecord run) {
  public static RunView of(String watchId, RunRecord record) {
    return whole(watchId, record.lean());
  }

  /** With the items the run judged (GET /watches/:id/runs/:runId). */
  public static RunView whole(String watchId, RunRecord record) {
    return new RunView(watchId, record.withChannelsShown(ChannelMask::mask));
  }
}
