package io.periscope.net;

import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;

/**
 * The idle connections a client keeps for its next calls. OkHttp keeps 5 by default: a busy
 * minute's calls to one host (every run's model call goes to one provider; up to {@link
 * UpstreamDispatcher#MAX_CALLS_PER_HOST} at once) then connected again, and over TLS shook hands
 * again, for most of them. Kept five minutes, OkHttp's default, so a watch due every minute finds
 * its feed's connection again where the server keeps it open.
 */
final class ConnectionPools {
  static final int MAX_IDLE = UpstreamDispatcher.MAX_CALLS_PER_HOST;

  private ConnectionPools() {}

  static ConnectionPool create() {
    return new ConnectionPool(MAX_IDLE, 5, TimeUnit.MINUTES);
  }
}
