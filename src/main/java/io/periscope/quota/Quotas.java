package io.periscope.quota;

import io.periscope.entity.JsonSerializable;
import java.math.BigDecimal;

/**
 * What one account may use. As limits, a null field is no limit; as an administrator's overrides of
 * an account, a null field is the operator's default.
 *
 * @param maxWatches watches the account may have at once
 * @param maxSourcesPerWatch sources one watch may have
 * @param minIntervalMinutes the shortest time between two scheduled runs of a watch's schedule
 * @param modelCallsPerDay model calls (run verdicts, assistance) per UTC day
 * @param modelTokensPerMonth model tokens (input and output) per UTC calendar month
 * @param modelCostPerMonth model cost per UTC calendar month, in the unit the prices are given in
 */
public record Quotas(
    Integer maxWatches,
    Integer maxSourcesPerWatch,
    Integer minIntervalMinutes,
    Integer modelCallsPerDay,
    Long modelTokensPerMonth,
    BigDecimal modelCostPerMonth)
    implements JsonSerializable {
  /** No limit at all; as overrides, nothing overridden. */
  public static final Quotas NONE = new Quotas(null, null, null, null, null, null);

  public static final String MAX_WATCHES = "maxWatches";
  public static final String MAX_SOURCES_PER_WATCH = "maxSourcesPerWatch";
  public static final String MIN_INTERVAL_MINUTES = "minIntervalMinutes";
  public static final String MODEL_CALLS_PER_DAY = "modelCallsPerDay";
  public static final String MODEL_TOKENS_PER_MONTH = "modelTokensPerMonth";
  public static final String MODEL_COST_PER_MONTH = "modelCostPerMonth";

  /** These overrides over {@code defaults}: each field overridden, or the default. */
  public Quotas over(Quotas defaults) {
    return new Quotas(
        maxWatches != null ? maxWatches : defaults.maxWatches,
        maxSourcesPerWatch != null ? maxSourcesPerWatch : defaults.maxSourcesPerWatch,
        minIntervalMinutes != null ? minIntervalMinutes : defaults.minIntervalMinutes,
        modelCallsPerDay != null ? modelCallsPerDay : defaults.modelCallsPerDay,
        modelTokensPerMonth != null ? modelTokensPerMonth : defaults.modelTokensPerMonth,
        modelCostPerMonth != null ? modelCostPerMonth : defaults.modelCostPerMonth);
  }
}
