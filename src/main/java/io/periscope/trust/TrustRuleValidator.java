package io.periscope.trust;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks a rule set with {@code PUT /trust-rules/:pattern}: the pattern from the path, {@code
 * {tier}} as the body.
 */
public final class TrustRuleValidator {
  private TrustRuleValidator() {}

  /**
   * @throws ValidationException listing every problem, at the paths {@code pattern} and {@code
   *     tier}
   */
  public static TrustRule validate(String pattern, JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    Optional<DomainPattern> parsed = DomainPattern.parse(pattern);
    if (parsed.isEmpty()) issues.add(Issue.at(DomainPattern.RULE, "pattern"));
    JsonNode tier = body.isObject() ? body.get("tier") : null;
    if (!body.isObject()) {
      issues.add(Issue.at("the body must be a JSON object {tier}"));
    } else if (tier == null || tier.isNull()) {
      issues.add(Issue.at("is required", "tier"));
    } else if (!tier.isTextual() || TrustTier.fromWire(tier.asText()).isEmpty()) {
      issues.add(Issue.at("must be one of " + TrustTier.names(), "tier"));
    }
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new TrustRule(parsed.get().text(), tier.asText());
  }
}
