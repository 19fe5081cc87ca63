package io.periscope.testing;

import io.periscope.json.Json;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A loopback webhook receiver that fails the attempts a {@link Policy} chooses (503) and
 * acknowledges the others (204), de-duplicating by {@code webhook-id} as a Standard Webhooks
 * receiver does: per id it keeps the attempts, the acknowledgements (more than one is a double),
 * the alert's decision time (the body's {@code at}) and when it first acknowledged it.
 */
public final class FlakyWebhookReceiver implements AutoCloseable {
  /** Whether to fail attempt {@code attempt} (1 for the first) of the alert {@code webhookId}. */
  @FunctionalInterface
  public interface Policy {
    boolean fail(String webhookId, int attempt);
  }

  /** What arrived for one webhook-id. */
  public static final class Received {
    private int attempts;
    private int acks;
    private Instant decidedAt;
    private Instant firstAck;

    public synchronized int attempts() {
      return attempts;
    }

    public synchronized int acks() {
      return acks;
    }

    /** The alert's decision time, as its body says; null until acknowledged. */
    public synchronized Instant decidedAt() {
      return decidedAt;
    }

    /** When the receiver first acknowledged the alert; null until then. */
    public synchronized Instant firstAck() {
      return firstAck;
    }
  }

  private final MockWebServer server = new MockWebServer();
  private final Map<String, Received> received = new ConcurrentHashMap<>();
  private final AtomicLong failed = new AtomicLong();
  private volatile Policy policy;

  public FlakyWebhookReceiver(Policy policy) throws IOException {
    this.policy = policy;
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            // A new connection per request, as in FakeUpstream: a kept-alive MockWebServer
            // connection adds Nagle's and a delayed ACK's ~40 ms that no real receiver adds.
            return answer(request).setHeader("Connection", "close");
          }
        });
    server.start();
  }

  /** The receiver's URL, for a {@code webhook:} channel. */
  public String url() {
    return "http://127.0.0.1:" + server.getPort() + "/hook";
  }

  public void policy(Policy policy) {
    this.policy = policy;
  }

  /** Every webhook-id that arrived, with what arrived for it. */
  public Map<String, Received> received() {
    return Map.copyOf(received);
  }

  /** The attempts answered 503. */
  public long failed() {
    return failed.get();
  }

  /** The ids acknowledged at least once. */
  public long delivered() {
    return received.values().stream().filter(r -> r.acks() > 0).count();
  }

  /**
   * Acknowledgements past the first of their id: alerts a receiver without de-duplication doubles.
   */
  public long duplicates() {
    return received.values().stream().mapToLong(r -> Math.max(0, r.acks() - 1)).sum();
  }

  private MockResponse answer(RecordedRequest request) {
    String id = request.getHeader("webhook-id");
    if (id == null) return new MockResponse().setResponseCode(400);
    Received r = received.computeIfAbsent(id, i -> new Received());
    Instant now = Instant.now();
    synchronized (r) {
      r.attempts++;
      if (policy.fail(id, r.attempts)) {
        failed.incrementAndGet();
        return new MockResponse().setResponseCode(503);
      }
      r.acks++;
      if (r.firstAck == null) {
        r.firstAck = now;
        try {
          r.decidedAt =
              Instant.parse(Json.MAPPER.readTree(request.getBody().readUtf8()).path("at").asText());
        } catch (IOException | RuntimeException noDecisionTime) {
          // counted as received all the same; its latency is unknown
        }
      }
    }
    return new MockResponse().setResponseCode(204);
  }

  @Override
  public void close() throws IOException {
    server.shutdown();
  }
}
