package io.periscope.net;

import java.time.Duration;
import okhttp3.OkHttpClient;

/**
 * The HTTP clients of calls to operator-configured endpoints (model, search, Telegram, identity
 * providers): trusted, unlike a user's feed or page, but bounded in time. One per node: a client
 * holds its connection pool and threads.
 */
public final class UpstreamClients {
  /** A model or search call may take long, but never hangs a run forever. */
  static final Duration UPSTREAM_CALL_TIMEOUT = Duration.ofMinutes(2);

  /** A sign-in waits on its identity provider: a person is looking at the browser. */
  static final Duration IDENTITY_CALL_TIMEOUT = Duration.ofSeconds(20);

  private UpstreamClients() {}

  /** The client of calls to operator-configured endpoints, bounded in time. */
  public static OkHttpClient trusted() {
    return new OkHttpClient.Builder()
        .dispatcher(UpstreamDispatcher.create("upstream"))
        .connectionPool(ConnectionPools.create())
        .connectTimeout(Duration.ofSeconds(10))
        .readTimeout(UPSTREAM_CALL_TIMEOUT)
        .callTimeout(UPSTREAM_CALL_TIMEOUT)
        .build();
  }

  /**
   * {@code trusted} for model and search calls. They carry a key in a header (x-api-key,
   * X-Subscription-Token…) that OkHttp would forward across a redirect to wherever it points: they
   * follow none.
   */
  public static OkHttpClient keyed(OkHttpClient trusted) {
    return trusted.newBuilder().followRedirects(false).followSslRedirects(false).build();
  }

  /** {@code trusted} for an identity provider's token and user-info calls during a sign-in. */
  public static OkHttpClient identity(OkHttpClient trusted) {
    return trusted
        .newBuilder()
        .readTimeout(IDENTITY_CALL_TIMEOUT)
        .callTimeout(IDENTITY_CALL_TIMEOUT)
        .build();
  }
}
