package io.periscope.llm;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.periscope.entity.JsonSerializable;
import java.math.BigDecimal;

/**
 * What some model calls took: the calls the provider answered, their tokens (input with its cached
 * part, output), and their cost in the unit the administrator gave the prices in. {@code cost} is
 * null when a call's model had no price: a total is known only when every part of it is, so no cost
 * is ever a guess.
 */
public record ModelUsage(
    int calls,
    long inputTokens,
    long cachedInputTokens,
    long outputTokens,
    @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal cost)
    implements JsonSerializable {
  /** No call: nothing spent. */
  public static final ModelUsage NONE = new ModelUsage(0, 0, 0, 0, BigDecimal.ZERO);

  /** One answered call of a model priced {@code price} (null: no price set). */
  public static ModelUsage of(ModelClient.Usage usage, ModelPrice price) {
    return new ModelUsage(
        1, usage.in(), usage.cachedIn(), usage.out(), price == null ? null : price.cost(usage));
  }

  public ModelUsage plus(ModelUsage other) {
    return new ModelUsage(
        calls + other.calls,
        inputTokens + other.inputTokens,
        cachedInputTokens + other.cachedInputTokens,
        outputTokens + other.outputTokens,
        cost == null || other.cost == null ? null : cost.add(other.cost));
  }
}
