package io.periscope.http.connection;

import java.time.Duration;

/** A request body that did not arrive whole within the body read deadline: answered 408. */
public final class SlowRequestBody extends RuntimeException {
  SlowRequestBody(Duration deadline) {
    super("the request body did not arrive within " + deadline.toSeconds() + " s");
  }
}
