package io.periscope.net;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.Rule;
import org.junit.Test;

/**
 * A burst of calls to one host leaves its connections for the next burst: OkHttp's default pool
 * kept 5 and connected again for the rest. A feed's GET and a webhook's POST to one host share a
 * connection, and the call threads of one minute's burst wait for the next.
 */
public class ConnectionPoolsTest {
  private static final int AT_ONCE = 20;

  @Rule public final MockWebServer server = new MockWebServer();

  @Test
  public void userUrlsReuseABurstsConnections() throws Exception {
    SafeHttp http = loopbackHttp();
    String url = server.url("/feed").toString();
    Callable<?> get = () -> http.get(url, Map.of(), 1000).toCompletableFuture().get();
    assertEquals(AT_ONCE, newConnections(get));
    assertEquals(0, newConnections(get));
  }

  @Test
  public void upstreamCallsReuseABurstsConnections() throws Exception {
    OkHttpClient keyed = UpstreamClients.keyed(UpstreamClients.trusted());
    Request request = new Request.Builder().url(server.url("/v1/chat/completions")).build();
    Callable<?> call =
        () -> {
          try (Response response = keyed.newCall(request).execute()) {
            return response.body().string();
          }
        };
    assertEquals(AT_ONCE, newConnections(call));
    assertEquals(0, newConnections(call));
  }

  @Test
  public void aFeedsGetAndAWebhooksPostShareTheGuardedConnection() throws Exception {
    SafeHttp http = loopbackHttp();
    // as the senders build theirs from the guarded client
    OkHttpClient sender =
        http.guardedClient().newBuilder().callTimeout(Duration.ofSeconds(5)).build();
    server.enqueue(new MockResponse().setBody("feed"));
    server.enqueue(new MockResponse().setResponseCode(204));
    http.get(server.url("/feed").toString(), Map.of(), 1000).toCompletableFuture().get();
    Request post =
        new Request.Builder()
            .url(server.url("/hook"))
            .post(RequestBody.create("{}", MediaType.get("application/json")))
            .build();
    try (Response response = sender.newCall(post).execute()) {
      assertEquals(204, response.code());
    }
    assertEquals(0, server.takeRequest().getSequenceNumber());
    assertEquals(1, server.takeRequest().getSequenceNumber());
  }

  @Test
  public void callThreadsOutliveTheMinuteBetweenBursts() {
    ThreadPoolExecutor threads =
        (ThreadPoolExecutor) UpstreamDispatcher.create("test").executorService();
    assertTrue(threads.getKeepAliveTime(TimeUnit.SECONDS) > 60);
  }

  private static SafeHttp loopbackHttp() {
    return new SafeHttp(
        address -> address.isLoopbackAddress(),
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10));
  }

  /**
   * Makes {@link #AT_ONCE} calls that overlap (each answer waits), waits for them all, and counts
   * the connections the server accepted for them.
   */
  private int newConnections(Callable<?> call) throws Exception {
    int before = server.getRequestCount();
    for (int i = 0; i < AT_ONCE; i++)
      server.enqueue(new MockResponse().setBody("ok").setHeadersDelay(300, TimeUnit.MILLISECONDS));
    ExecutorService callers = Executors.newFixedThreadPool(AT_ONCE);
    try {
      for (Future<?> done : callers.invokeAll(Collections.nCopies(AT_ONCE, call)))
        done.get(20, TimeUnit.SECONDS);
    } finally {
      callers.shutdownNow();
    }
    int connected = 0;
    for (int i = before; i < server.getRequestCount(); i++)
      if (server.takeRequest().getSequenceNumber() == 0) connected++;
    return connected;
  }
}
