package io.periscope.metrics;

import io.micrometer.core.instrument.Meter;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The meters of one name by their tag values, each built and registered once. A builder's {@code
 * register} finds an existing meter again at every call, building its id and sorting its tags (and,
 * for a timer, its histogram's configuration) first: per-run work for what is per-node. Tag values
 * must be closed sets, as every label here is; the registry must not remove the meters.
 */
public final class RegisteredMeters<M extends Meter> {
  private final ConcurrentHashMap<List<String>, M> meters = new ConcurrentHashMap<>();
  private final Function<List<String>, M> register;

  /**
   * @param register builds and registers the meter of the given tag values, in the order {@link
   *     #get} is given them
   */
  public RegisteredMeters(Function<List<String>, M> register) {
    this.register = register;
  }

  public M get(String... tagValues) {
    return meters.computeIfAbsent(List.of(tagValues), register);
  }
}
