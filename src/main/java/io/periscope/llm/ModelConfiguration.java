package io.periscope.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.JsonSerializable;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The models Periscope asks: one for verdicts (runs), one for AI assistance. */
public record ModelConfiguration(ModelChoice verdicts, ModelChoice assistance)
    implements JsonSerializable {
  static final int MAX_BASE_URL = 2000;
  static final int MAX_MODEL = 200;

  /** Both purposes on the operator's one MODEL_* setting. */
  public static ModelConfiguration both(ModelChoice choice) {
    return new ModelConfiguration(choice, choice);
  }

  /**
   * The distinct endpoints asked (one when verdicts and assistance share provider and base URL): a
   * model key must be accepted by each, since one key pool serves both.
   */
  public List<ModelChoice> endpoints() {
    return assistance.sameEndpoint(verdicts) ? List.of(verdicts) : List.of(verdicts, assistance);
  }

  /**
   * A PUT /admin/model body: {@code {verdicts: {provider, baseUrl, model, price?}, assistance:
   * {…}}}, every field but {@code price} required ({@link ModelPrice#parse}). The base URL is the
   * operator's trusted endpoint (no address guard), but it must be an absolute http(s) URL without
   * credentials, query or fragment: the clients append their paths to it, and it is shown to
   * admins.
   *
   * @throws ValidationException listing every problem, by path
   */
  public static ModelConfiguration parse(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new ValidationException(
          List.of(
              Issue.at(
                  "the body must be {verdicts: {provider, baseUrl, model}, "
                      + "assistance: {provider, baseUrl, model}}")));
    }
    List<Issue> issues = new ArrayList<>();
    ModelChoice verdicts = choice(body.get("verdicts"), "verdicts", issues);
    ModelChoice assistance = choice(body.get("assistance"), "assistance", issues);
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new ModelConfiguration(verdicts, assistance);
  }

  private static ModelChoice choice(JsonNode node, String purpose, List<Issue> issues) {
    if (node == null || node.isNull()) {
      issues.add(Issue.at("is required", purpose));
      return null;
    }
    if (!node.isObject()) {
      issues.add(Issue.at("must be an object {provider, baseUrl, model, price?}", purpose));
      return null;
    }
    int before = issues.size();
    String provider = text(node, "provider", purpose, issues);
    if (provider != null && !ModelChoice.PROVIDERS.contains(provider.toLowerCase(Locale.ROOT))) {
      issues.add(Issue.at("must be openai or anthropic", purpose, "provider"));
    }
    String baseUrl = text(node, "baseUrl", purpose, issues);
    if (baseUrl != null) {
      String problem = baseUrlProblem(baseUrl);
      if (problem != null) issues.add(Issue.at(problem, purpose, "baseUrl"));
    }
    String model = text(node, "model", purpose, issues);
    if (model != null && model.length() > MAX_MODEL) {
      issues.add(Issue.at("must be at most " + MAX_MODEL + " characters", purpose, "model"));
    }
    JsonNode priced = node.get("price");
    ModelPrice price =
        priced == null || priced.isNull() ? null : ModelPrice.parse(priced, issues, purpose);
    return issues.size() > before
        ? null
        : new ModelChoice(provider.toLowerCase(Locale.ROOT), baseUrl, model, price);
  }

  /** The field's trimmed text; an issue when it is absent, not a string or empty. */
  private static String text(JsonNode node, String field, String purpose, List<Issue> issues) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      issues.add(Issue.at("is required", purpose, field));
      return null;
    }
    if (!value.isTextual() || value.asText().isBlank()) {
      issues.add(Issue.at("must be a non-empty string", purpose, field));
      return null;
    }
    return value.asText().strip();
  }

  private static String baseUrlProblem(String baseUrl) {
    if (baseUrl.length() > MAX_BASE_URL) return "must be at most " + MAX_BASE_URL + " characters";
    URI uri;
    try {
      uri = new URI(baseUrl);
    } catch (URISyntaxException e) {
      return "must be an absolute http(s) URL";
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      return "must be an absolute http(s) URL";
    }
    if (uri.getRawUserInfo() != null)
      return "must not carry credentials (keys belong in the key pool)";
    if (uri.getRawQuery() != null || uri.getRawFragment() != null)
      return "must not have a query or a fragment";
    return null;
  }
}
