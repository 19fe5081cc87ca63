package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.JsonSerializable;
import io.periscope.json.Issue;
import java.math.BigDecimal;
import java.util.List;

/**
 * What an administrator says a model's tokens cost, per million tokens, in whatever unit they give
 * it (US dollars, euros, credits...): every cost computed from it is in that unit. {@code
 * cachedInputPerMillion} is the price of input tokens the provider read from its prompt cache; null
 * prices them as any input token (the provider's full price, never below what it bills).
 *
 * <p>Decimal, not floating point: a cost is the exact sum of its calls' costs, however many.
 */
public record ModelPrice(
    BigDecimal inputPerMillion, BigDecimal cachedInputPerMillion, BigDecimal outputPerMillion)
    implements JsonSerializable {
  /** A bound far above any model's price, so a typo (a price per token times a million) shows. */
  static final BigDecimal MAX_PER_MILLION = new BigDecimal("100000");

  private static final int TOKENS_PER_PRICE = 6; // the prices are per 10^6 tokens

  public ModelPrice {
    inputPerMillion = plain(inputPerMillion);
    cachedInputPerMillion = cachedInputPerMillion == null ? null : plain(cachedInputPerMillion);
    outputPerMillion = plain(outputPerMillion);
  }

  /** The cost of one call's tokens, exact, in the prices' unit. */
  public BigDecimal cost(ModelClient.Usage usage) {
    BigDecimal cached = cachedInputPerMillion == null ? inputPerMillion : cachedInputPerMillion;
    BigDecimal perMillion =
        inputPerMillion
            .multiply(BigDecimal.valueOf(usage.in() - usage.cachedIn()))
            .add(cached.multiply(BigDecimal.valueOf(usage.cachedIn())))
            .add(outputPerMillion.multiply(BigDecimal.valueOf(usage.out())));
    return plain(perMillion.movePointLeft(TOKENS_PER_PRICE));
  }

  /**
   * A {@code price} object of a request body, {@code {inputPerMillion, cachedInputPerMillion?,
   * outputPerMillion}}: numbers from 0 to {@link #MAX_PER_MILLION}. Problems are added to {@code
   * issues} under {@code [purpose, "price", field]}; null then.
   */
  static ModelPrice parse(JsonNode node, List<Issue> issues, String purpose) {
    if (!node.isObject()) {
      issues.add(
          Issue.at(
              "must be an object {inputPerMillion, cachedInputPerMillion?, outputPerMillion}",
              purpose,
              "price"));
      return null;
    }
    int before = issues.size();
    BigDecimal input = amount(node, "inputPerMillion", true, issues, purpose);
    BigDecimal cached = amount(node, "cachedInputPerMillion", false, issues, purpose);
    BigDecimal output = amount(node, "outputPerMillion", true, issues, purpose);
    return issues.size() > before ? null : new ModelPrice(input, cached, output);
  }

  private static BigDecimal amount(
      JsonNode node, String field, boolean required, List<Issue> issues, String purpose) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      if (required) issues.add(Issue.at("is required", purpose, "price", field));
      return null;
    }
    // a number too big for a double reads as infinite, which has no decimal value
    BigDecimal amount =
        value.isNumber() && Double.isFinite(value.doubleValue()) ? value.decimalValue() : null;
    if (amount == null || amount.signum() < 0 || amount.compareTo(MAX_PER_MILLION) > 0) {
      issues.add(
          Issue.at(
              "must be a number from 0 to " + MAX_PER_MILLION + " (per million tokens)",
              purpose,
              "price",
              field));
      return null;
    }
    return amount;
  }

  /**
   * One way to write each amount, so equal prices are equal records and read back as written
   * ({@code 10}, not {@code 1E+1} nor {@code 10.00}).
   */
  private static BigDecimal plain(BigDecimal amount) {
    return new BigDecimal(amount.stripTrailingZeros().toPlainString());
  }
}
