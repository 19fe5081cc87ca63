package io.periscope.testing;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client of a {@link LocalCluster} that retries what a client should retry while nodes stop and
 * start: connection refused or reset (a node stopping or starting) and 503 (a node draining, or an
 * entity on its way to another node). Each try goes to the next node.
 */
public final class RetryingClient {
  private static final int TRIES = 60;

  /** A request's answer and how many tries it took. */
  public record Answered(HttpResponse<String> response, int tries) {
    public int status() {
      return response.statusCode();
    }
  }

  private final ApiClient api = new ApiClient();
  private final LocalCluster cluster;
  private final AtomicInteger retries = new AtomicInteger();

  public RetryingClient(LocalCluster cluster) {
    this.cluster = cluster;
  }

  /** {@code firstNode} counts on past the cluster's size (node + 1 is the next one round). */
  public Answered send(String method, int firstNode, String path, String token, String body)
      throws Exception {
    for (int tries = 1; ; tries++) {
      int node = 1 + (firstNode - 1 + tries - 1) % cluster.size();
      try {
        HttpResponse<String> r = api.send(method, cluster.node(node).uri(path), token, body);
        if (r.statusCode() != 503) return new Answered(r, tries);
      } catch (IOException refusedOrReset) {
        if (tries >= TRIES) throw refusedOrReset;
      }
      if (tries >= TRIES) {
        throw new AssertionError(method + " " + path + " still refused after " + TRIES + " tries");
      }
      retries.incrementAndGet();
      Thread.sleep(250);
    }
  }

  /** The tries past the first, of every request so far. */
  public int retries() {
    return retries.get();
  }

  /** Adds to {@code failures} what {@code answered} was if not {@code status}. */
  public static void expect(int status, Answered answered, List<String> failures, String what) {
    if (answered.status() != status) {
      failures.add(what + " → " + answered.status() + " " + answered.response().body());
    }
  }
}
