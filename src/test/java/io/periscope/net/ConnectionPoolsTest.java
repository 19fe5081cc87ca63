package io.periscope.net;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * A burst of calls to one host leaves its connections for the next burst: OkHttp's default pool
 * kept 5 and connected again for the rest.
 */
public class ConnectionPoolsTest {
  private static final int AT_ONCE = 20;

  private MockWebServer server;

  @Before
  public void start() throws Exception {
    server = new MockWebServer();
    server.start();
  }

  @After
  public void stop() throws Exception {
    server.shutdown();
  }

  @Test
  public void userUrlsReuseABurstsConnections() throws Exception {
    SafeHttp http =
        new SafeHttp(
            address -> address.isLoopbackAddress(),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(10));
    String url = server.url("/feed").toString();
    assertEquals(AT_ONCE, newConnections(() -> http.get(url, Map.of(), 1000)));
    assertEquals(0, newConnections(() -> http.get(url, Map.of(), 1000)));
  }

  @Test
  public void upstreamCallsReuseABurstsConnections() throws Exception {
    OkHttpClient keyed = UpstreamClients.keyed(UpstreamClients.trusted());
    Request request = new Request.Builder().url(server.url("/v1/chat/completions")).build();
    assertEquals(AT_ONCE, newConnections(() -> call(keyed, request)));
    assertEquals(0, newConnections(() -> call(keyed, request)));
  }

  /**
   * Makes {@link #AT_ONCE} calls that overlap (each answer waits), waits for them all, and counts
   * the connections the server accepted for them.
   */
  private int newConnections(Supplier<CompletionStage<?>> call) throws Exception {
    int before = server.getRequestCount();
    for (int i = 0; i < AT_ONCE; i++)
      server.enqueue(new MockResponse().setBody("ok").setHeadersDelay(300, TimeUnit.MILLISECONDS));
    List<CompletableFuture<?>> calls = new ArrayList<>();
    for (int i = 0; i < AT_ONCE; i++) calls.add(call.get().toCompletableFuture());
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
    int connected = 0;
    for (int i = before; i < server.getRequestCount(); i++)
      if (server.takeRequest().getSequenceNumber() == 0) connected++;
    return connected;
  }

  private static CompletionStage<String> call(OkHttpClient client, Request request) {
    CompletableFuture<String> body = new CompletableFuture<>();
    client
        .newCall(request)
        .enqueue(
            new Callback() {
              @Override
              public void onFailure(Call call, IOException e) {
                body.completeExceptionally(e);
              }

              @Override
              public void onResponse(Call call, Response response) throws IOException {
                try (response) {
                  body.complete(response.body().string());
                }
              }
            });
    return body;
  }
}
