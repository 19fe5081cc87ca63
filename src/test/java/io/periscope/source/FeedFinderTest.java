package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.net.FetchFailure;
import io.periscope.net.SafeHttp;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.Test;

/** A look at a URL goes through the network guard of every fetch. */
public class FeedFinderTest {
  @Test
  public void anAddressTheGuardRefusesIsNeverFetched() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setBody("<html></html>"));
      FeedFinder finder =
          new FeedFinder(new SafeHttp(false), new CollectionBudget(CollectionLimits.DEFAULTS));
      try {
        finder.discover(server.url("/").toString()).toCompletableFuture().get(10, TimeUnit.SECONDS);
        throw new AssertionError("a loopback address was fetched");
      } catch (ExecutionException e) {
        assertTrue(e.getCause() instanceof FetchFailure);
        assertEquals(FetchFailure.Kind.REFUSED, ((FetchFailure) e.getCause()).kind());
      }
      assertEquals(0, server.getRequestCount());
    }
  }
}
