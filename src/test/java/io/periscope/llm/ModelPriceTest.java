package io.periscope.llm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.math.BigDecimal;
import org.junit.Test;

/** A call's cost from its tokens and the administrator's prices per million tokens. */
public class ModelPriceTest {
  private static final ModelPrice MINI =
      new ModelPrice(new BigDecimal("0.15"), new BigDecimal("0.075"), new BigDecimal("0.60"));

  /** 10,000 tokens in, 4,000 of them from the cache, 500 out. */
  private static final ModelClient.Usage CALL = new ModelClient.Usage(10_000, 500, 4_000);

  @Test
  public void cachedInputIsPricedAtItsOwnPriceAndTheRestOfTheInputAtTheInputPrice() {
    // 6,000 × 0.15 + 4,000 × 0.075 + 500 × 0.60 = 900 + 300 + 300 = 1,500 per million
    assertEquals(new BigDecimal("0.0015"), MINI.cost(CALL));
  }

  @Test
  public void withoutACachedPriceCachedInputCostsWhatInputCosts() {
    ModelPrice noCachedPrice = new ModelPrice(new BigDecimal("0.15"), null, new BigDecimal("0.60"));
    // 10,000 × 0.15 + 500 × 0.60 = 1,800 per million
    assertEquals(new BigDecimal("0.0018"), noCachedPrice.cost(CALL));
  }

  @Test
  public void aCostIsExactHoweverSmall() {
    // one token out at 0.60 per million, and 1,234 in at 0.15
    assertEquals(new BigDecimal("0.0000006"), MINI.cost(new ModelClient.Usage(0, 1, 0)));
    assertEquals(new BigDecimal("0.0001851"), MINI.cost(new ModelClient.Usage(1_234, 0, 0)));
    assertEquals(BigDecimal.ZERO, MINI.cost(ModelClient.Usage.UNKNOWN));
  }

  @Test
  public void pricesAreKeptInOneWritingSoEqualPricesAreEqual() {
    assertEquals(
        new ModelPrice(new BigDecimal("10"), null, new BigDecimal("0.6")),
        new ModelPrice(new BigDecimal("10.00"), null, new BigDecimal("0.600")));
    assertEquals(
        "10",
        new ModelPrice(new BigDecimal("1E+1"), null, BigDecimal.ONE).inputPerMillion().toString());
  }

  @Test
  public void aTotalHasACostOnlyWhenEveryCallInItHasOne() {
    ModelUsage priced = ModelUsage.of(CALL, MINI);
    assertEquals(new ModelUsage(1, 10_000, 4_000, 500, new BigDecimal("0.0015")), priced);
    assertEquals(
        new ModelUsage(2, 20_000, 8_000, 1_000, new BigDecimal("0.0030")), priced.plus(priced));
    assertEquals(priced, ModelUsage.NONE.plus(priced));

    ModelUsage unpriced = ModelUsage.of(CALL, null);
    assertNull(unpriced.cost());
    assertEquals(new ModelUsage(2, 20_000, 8_000, 1_000, null), priced.plus(unpriced));
    assertNull(unpriced.plus(priced).cost());
  }
}
