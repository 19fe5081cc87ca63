package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.keys.KeyPools;
import io.periscope.net.FetchFailure;
import io.periscope.provider.ProviderFailure;
import java.util.concurrent.CompletionException;
import org.junit.Test;

public class SourceResultTest {
  @Test
  public void fetchFailuresKeepTheirKindAndATimeoutIsUnreachable() {
    SourceError http =
        SourceResult.failed(
                "u",
                new CompletionException(
                    new FetchFailure(FetchFailure.Kind.HTTP, 503, "h answered HTTP 503")))
            .error();
    assertEquals(new SourceError("u", "http", "h answered HTTP 503", 503), http);
    assertEquals(
        "too-large",
        SourceResult.failed("u", new FetchFailure(FetchFailure.Kind.TOO_LARGE, null, "m"))
            .error()
            .kind());
    assertEquals(
        "unreachable",
        SourceResult.failed("u", new FetchFailure(FetchFailure.Kind.TIMEOUT, null, "m"))
            .error()
            .kind());
  }

  @Test
  public void searchFailuresAreProviderOrNotConfigured() {
    SourceResult provider =
        SourceResult.failed(
            "query",
            new ProviderFailure(
                ProviderFailure.Kind.RATE_LIMITED, 429, null, "provider answered HTTP 429"));
    assertEquals(
        new SourceError("query", "provider", "provider answered HTTP 429", 429), provider.error());
    assertTrue(provider.items().isEmpty());
    assertEquals(
        "not-configured",
        SourceResult.failed("query", new KeyPools.NoUsableKey("search")).error().kind());
  }
}
