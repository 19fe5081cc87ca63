package io.periscope.net;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

public class SafeHttpTest {
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

  /** The guard as in production, except that this test's own server on loopback may be reached. */
  private static SafeHttp guardedExceptLoopback() {
    return new SafeHttp(
        address -> address.isLoopbackAddress(),
        Duration.ofSeconds(2),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }

  private static FetchFailure failure(CompletionStage<?> stage) throws Exception {
    try {
      stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof FetchFailure f) return f;
      throw e;
    }
    fail("expected a FetchFailure");
    return null;
  }

  private static SafeHttp.Response response(CompletionStage<SafeHttp.Response> stage)
      throws Exception {
    return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private String loopbackUrl(String host, String path) {
    return "http://" + host + ":" + server.getPort() + path;
  }

  @Test
  public void refusesLoopbackLiteralByDefaultWithoutSendingARequest() throws Exception {
    server.enqueue(new MockResponse().setBody("secret"));
    FetchFailure failure =
        failure(new SafeHttp(false).get(loopbackUrl("127.0.0.1", "/"), Map.of(), 1000));
    assertEquals(FetchFailure.Kind.REFUSED, failure.kind());
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void refusesANameThatResolvesToLoopbackWithoutSendingARequest() throws Exception {
    server.enqueue(new MockResponse().setBody("secret"));
    FetchFailure failure =
        failure(new SafeHttp(false).get(loopbackUrl("localhost", "/"), Map.of(), 1000));
    assertEquals(FetchFailure.Kind.REFUSED, failure.kind());
    assertEquals(
        "localhost was not fetched: refused, or not resolvable from here", failure.getMessage());
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void aNameThatDoesNotResolveReadsAsOneThatResolvesInternally() throws Exception {
    SafeHttp http = new SafeHttp(false);
    FetchFailure internal = failure(http.get(loopbackUrl("localhost", "/"), Map.of(), 1000));
    FetchFailure missing =
        failure(http.get("http://no-such-host.invalid/feed.xml", Map.of(), 1000));
    assertEquals(internal.kind(), missing.kind());
    assertEquals(
        internal.getMessage().replace("localhost", "HOST"),
        missing.getMessage().replace("no-such-host.invalid", "HOST"));
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void refusesIpv4MappedAndNonCanonicalLiterals() throws Exception {
    SafeHttp http = new SafeHttp(false);
    int port = server.getPort();
    assertEquals(
        FetchFailure.Kind.REFUSED,
        failure(http.get("http://[::ffff:127.0.0.1]:" + port + "/", Map.of(), 1000)).kind());
    assertEquals(
        FetchFailure.Kind.REFUSED,
        failure(http.get("http://127.1:" + port + "/", Map.of(), 1000)).kind());
    assertEquals(
        FetchFailure.Kind.REFUSED,
        failure(http.get("http://[::1]:" + port + "/", Map.of(), 1000)).kind());
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void refusesOtherSchemes() throws Exception {
    SafeHttp http = new SafeHttp(true);
    assertEquals(
        FetchFailure.Kind.REFUSED, failure(http.get("file:///etc/passwd", Map.of(), 1000)).kind());
    assertEquals(
        FetchFailure.Kind.REFUSED, failure(http.get("ftp://example.com/x", Map.of(), 1000)).kind());
  }

  @Test
  public void allowPrivateNetworksReachesLoopbackAndSendsTheHeaders() throws Exception {
    server.enqueue(new MockResponse().setBody("hello").addHeader("ETag", "\"v1\""));
    SafeHttp.Response response =
        response(
            new SafeHttp(true)
                .get(loopbackUrl("localhost", "/feed"), Map.of("If-None-Match", "\"v0\""), 1000));
    assertEquals(200, response.status());
    assertEquals("hello", new String(response.body(), StandardCharsets.UTF_8));
    assertEquals("\"v1\"", response.header("ETag"));
    RecordedRequest request = server.takeRequest();
    assertEquals("/feed", request.getPath());
    assertEquals("\"v0\"", request.getHeader("If-None-Match"));
  }

  @Test
  public void aNotModifiedAnswerIsAResponseNotAFailure() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(304));
    SafeHttp.Response response =
        response(new SafeHttp(true).get(server.url("/").toString(), Map.of(), 1000));
    assertEquals(304, response.status());
    assertEquals(0, response.body().length);
  }

  @Test
  public void anErrorAnswerFailsWithItsStatus() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(404));
    FetchFailure failure =
        failure(new SafeHttp(true).get(server.url("/").toString(), Map.of(), 1000));
    assertEquals(FetchFailure.Kind.HTTP, failure.kind());
    assertEquals(Integer.valueOf(404), failure.httpStatus());
  }

  @Test
  public void followsRedirectsAndReportsTheFinalUrl() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(301).addHeader("Location", "/moved"));
    server.enqueue(
        new MockResponse().setResponseCode(302).addHeader("Location", server.url("/final")));
    server.enqueue(new MockResponse().setBody("done"));
    SafeHttp.Response response =
        response(guardedExceptLoopback().get(server.url("/start").toString(), Map.of(), 1000));
    assertEquals("done", new String(response.body(), StandardCharsets.UTF_8));
    assertEquals(server.url("/final").toString(), response.finalUrl());
    assertEquals(3, server.getRequestCount());
  }

  @Test
  public void refusesARedirectToTheMetadataAddressAtThatHop() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(302)
            .addHeader("Location", "http://169.254.169.254/latest/meta-data/"));
    FetchFailure failure =
        failure(guardedExceptLoopback().get(server.url("/").toString(), Map.of(), 1000));
    assertEquals(FetchFailure.Kind.REFUSED, failure.kind());
    assertEquals(1, server.getRequestCount());
  }

  @Test
  public void refusesARedirectToAPrivateAddressOrAnotherScheme() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(307)
            .addHeader("Location", "http://10.0.0.7:8080/admin"));
    server.enqueue(
        new MockResponse().setResponseCode(302).addHeader("Location", "file:///etc/passwd"));
    SafeHttp http = guardedExceptLoopback();
    assertEquals(
        FetchFailure.Kind.REFUSED,
        failure(http.get(server.url("/a").toString(), Map.of(), 1000)).kind());
    assertEquals(
        FetchFailure.Kind.REFUSED,
        failure(http.get(server.url("/b").toString(), Map.of(), 1000)).kind());
    assertEquals(2, server.getRequestCount());
  }

  @Test
  public void followsFiveRedirectsButNotSix() throws Exception {
    SafeHttp http = guardedExceptLoopback();
    for (int i = 0; i < 5; i++)
      server.enqueue(new MockResponse().setResponseCode(302).addHeader("Location", "/" + i));
    server.enqueue(new MockResponse().setBody("ok"));
    assertEquals(200, response(http.get(server.url("/").toString(), Map.of(), 1000)).status());

    for (int i = 0; i < 6; i++)
      server.enqueue(new MockResponse().setResponseCode(302).addHeader("Location", "/" + i));
    FetchFailure failure = failure(http.get(server.url("/").toString(), Map.of(), 1000));
    assertEquals(FetchFailure.Kind.HTTP, failure.kind());
    assertEquals(Integer.valueOf(302), failure.httpStatus());
    assertEquals(6 + 6, server.getRequestCount());
  }

  @Test
  public void dropsCredentialsWhenARedirectLeavesTheOrigin() throws Exception {
    try (MockWebServer other = new MockWebServer()) {
      other.enqueue(new MockResponse().setBody("there"));
      server.enqueue(
          new MockResponse().setResponseCode(302).addHeader("Location", other.url("/x")));
      response(
          guardedExceptLoopback()
              .get(
                  server.url("/").toString(),
                  Map.of("Authorization", "Bearer token", "Accept", "text/html"),
                  1000));
      RecordedRequest second = other.takeRequest();
      assertNull(second.getHeader("Authorization"));
      assertEquals("text/html", second.getHeader("Accept"));
    }
  }

  @Test
  public void stopsReadingPastTheSizeLimit() throws Exception {
    SafeHttp http = new SafeHttp(true);
    server.enqueue(new MockResponse().setBody("x".repeat(2000)));
    assertEquals(
        FetchFailure.Kind.TOO_LARGE,
        failure(http.get(server.url("/").toString(), Map.of(), 1000)).kind());

    // No Content-Length: the limit holds while streaming.
    server.enqueue(new MockResponse().setChunkedBody("y".repeat(5000), 100));
    assertEquals(
        FetchFailure.Kind.TOO_LARGE,
        failure(http.get(server.url("/").toString(), Map.of(), 1000)).kind());

    server.enqueue(new MockResponse().setBody("z".repeat(1000)));
    assertEquals(
        1000, response(http.get(server.url("/").toString(), Map.of(), 1000)).body().length);
  }

  @Test
  public void aSlowServerTimesOut() throws Exception {
    SafeHttp http =
        new SafeHttp(true, Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(5));
    server.enqueue(new MockResponse().setBody("late").setHeadersDelay(2, TimeUnit.SECONDS));
    long started = System.nanoTime();
    FetchFailure failure =
        failure(http.get(server.url("/").toString(), Map.of(), 1000, Duration.ofMillis(500)));
    assertEquals(FetchFailure.Kind.TIMEOUT, failure.kind());
    assertEquals(true, System.nanoTime() - started < TimeUnit.SECONDS.toNanos(2));
  }

  @Test
  public void aClosedPortIsUnreachable() throws Exception {
    String url = server.url("/").toString();
    server.shutdown();
    assertEquals(
        FetchFailure.Kind.UNREACHABLE, failure(new SafeHttp(true).get(url, Map.of(), 1000)).kind());
  }

  @Test
  public void theGuardedClientPostsWithoutFollowingRedirects() throws Exception {
    OkHttpClient client = new SafeHttp(true).guardedClient();
    server.enqueue(new MockResponse().setResponseCode(307).addHeader("Location", "/elsewhere"));
    try (okhttp3.Response r =
        client
            .newCall(
                new Request.Builder()
                    .url(server.url("/hook"))
                    .post(RequestBody.create("{}", MediaType.get("application/json")))
                    .build())
            .execute()) {
      assertEquals(307, r.code());
    }
    assertEquals(1, server.getRequestCount());
  }

  @Test
  public void theGuardedClientRefusesLoopbackByNameAndByLiteral() throws Exception {
    OkHttpClient client = new SafeHttp(false).guardedClient();
    for (String host : new String[] {"localhost", "127.0.0.1"}) {
      HttpUrl url = server.url("/hook").newBuilder().host(host).build();
      try (okhttp3.Response r =
          client
              .newCall(
                  new Request.Builder()
                      .url(url)
                      .post(RequestBody.create("{}", MediaType.get("application/json")))
                      .build())
              .execute()) {
        fail("a loopback POST must be refused, got " + r.code());
      } catch (java.io.IOException expected) {
        assertTrue(
            "the guard refused it: " + expected,
            SafeHttp.refusal(expected).filter(r -> r.contains("loopback")).isPresent());
      }
    }
    assertEquals(0, server.getRequestCount());
  }

  @Test
  public void firstAnswerTakesAnyStatusAsAnAnswerWithoutFollowingRedirects() throws Exception {
    SafeHttp http = guardedExceptLoopback();
    server.enqueue(new MockResponse().setResponseCode(404));
    server.enqueue(
        new MockResponse().setResponseCode(302).addHeader("Location", "http://169.254.169.254/"));
    Duration timeout = Duration.ofSeconds(2);
    assertEquals(
        404,
        (int)
            http.firstAnswer(loopbackUrl("127.0.0.1", "/"), timeout)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS));
    assertEquals(
        302,
        (int)
            http.firstAnswer(loopbackUrl("127.0.0.1", "/"), timeout)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS));
    assertEquals("HEAD", server.takeRequest().getMethod());
    assertEquals("the redirect is not followed", 2, server.getRequestCount());
  }

  @Test
  public void firstAnswerIsGuardedAndFailsWhenNothingAnswers() throws Exception {
    Duration timeout = Duration.ofSeconds(2);
    assertEquals(
        FetchFailure.Kind.REFUSED,
        failure(new SafeHttp(false).firstAnswer(loopbackUrl("localhost", "/"), timeout)).kind());
    assertEquals(
        FetchFailure.Kind.REFUSED,
        failure(new SafeHttp(false).firstAnswer("ftp://example.org/", timeout)).kind());
    assertEquals(0, server.getRequestCount());
    String url = loopbackUrl("127.0.0.1", "/");
    server.shutdown();
    assertEquals(
        FetchFailure.Kind.UNREACHABLE,
        failure(new SafeHttp(true).firstAnswer(url, timeout)).kind());
  }
}
