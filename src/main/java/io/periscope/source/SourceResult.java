package io.periscope.source;

import io.periscope.keys.KeyPools;
import io.periscope.net.FetchFailure;
import io.periscope.provider.ProviderFailure;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * What one source yielded in a run: its items and the recoveries reading them took, or the one
 * error that stands for it in {@code sourceErrors}. {@code feedFound} is the feed collected in the
 * source's place when its URL answered an HTML page naming it ({@link FeedDiscovery}), else null.
 */
public record SourceResult(
    List<Item> items, SourceError error, List<String> recoveries, String feedFound) {
  /** The items, each within {@link ItemBounds}. */
  public static SourceResult ok(List<Item> items) {
    return ok(items, List.of());
  }

  /**
   * The items of a source that could only be read by recovering from faults ({@link
   * FeedReader.Read#recoveries()}).
   */
  public static SourceResult ok(List<Item> items, List<String> recoveries) {
    return new SourceResult(
        items.stream().map(ItemBounds::bounded).toList(), null, List.copyOf(recoveries), null);
  }

  public static SourceResult failed(SourceError error) {
    return new SourceResult(List.of(), error, List.of(), null);
  }

  /**
   * The source error for a failed fetch or search: the guard's and HTTP failures keep their kind (a
   * timeout is {@code unreachable}), a provider failure is {@code provider}, no usable search key
   * is {@code not-configured}.
   */
  public static SourceResult failed(String source, Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null)
      cause = cause.getCause();
    if (cause instanceof FetchFailure f) {
      String kind = f.kind() == FetchFailure.Kind.TIMEOUT ? "unreachable" : f.kind().wire();
      return failed(new SourceError(source, kind, f.getMessage(), f.httpStatus()));
    }
    if (cause instanceof ProviderFailure p) {
      return failed(new SourceError(source, "provider", p.getMessage(), p.httpStatus()));
    }
    if (cause instanceof KeyPools.NoUsableKey) {
      return failed(new SourceError(source, "not-configured", cause.getMessage(), null));
    }
    return failed(
        new SourceError(
            source,
            "unreachable",
            "collection failed (" + cause.getClass().getSimpleName() + ")",
            null));
  }

  /** This result as that of {@code feed}, the feed a page named. */
  public SourceResult withFeedFound(String feed) {
    return new SourceResult(items, error, recoveries, feed);
  }

  public boolean succeeded() {
    return error == null;
  }
}
