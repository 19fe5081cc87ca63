package io.periscope.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.crypto.Sha256;
import io.periscope.json.Json;
import io.periscope.llm.ModelPrice;
import io.periscope.llm.ModelUsage;
import io.periscope.llm.VerdictPrompt;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The scores of an evaluation, docs/evaluation.md defines each: the met decision's accuracy,
 * precision, recall and F1 over the answered cases, citation accuracy over the true positives,
 * tokens per verdict, latency percentiles and cost. A ratio without a case to rest on is null
 * ("n/a" in text), never 0.
 */
public final class EvalReport {
  /** Averages of costs are kept to this many significant digits; sums are exact. */
  private static final MathContext AVERAGE = new MathContext(6);

  private final String model;
  private final List<Evaluation.Result> results;
  private final ModelPrice price;

  private final List<Evaluation.Result> answered;
  private final int tp;
  private final int fp;
  private final int fn;
  private final int tn;
  private final int citedRight;
  private final ModelUsage total;
  private final ModelUsage ofAnswered;
  private final long[] latenciesMs;

  /**
   * @param model the model asked, {@code provider:model}
   * @param price the prices the costs were computed from; null when none was given
   */
  public EvalReport(String model, List<Evaluation.Result> results, ModelPrice price) {
    this.model = model;
    this.results = List.copyOf(results);
    this.price = price;
    this.answered = results.stream().filter(Evaluation.Result::answered).toList();
    int tp = 0, fp = 0, fn = 0, tn = 0, citedRight = 0;
    for (Evaluation.Result r : answered) {
      boolean expected = r.evalCase().expectedMet();
      boolean said = r.verdict().met();
      if (expected && said) {
        tp++;
        if (citesTheLabelledItems(r)) citedRight++;
      } else if (said) fp++;
      else if (expected) fn++;
      else tn++;
    }
    this.tp = tp;
    this.fp = fp;
    this.fn = fn;
    this.tn = tn;
    this.citedRight = citedRight;
    this.total = sum(results);
    this.ofAnswered = sum(answered);
    this.latenciesMs = answered.stream().mapToLong(r -> r.latency().toMillis()).sorted().toArray();
  }

  /** A verdict cites exactly the items its case labels as the evidence, in any order. */
  static boolean citesTheLabelledItems(Evaluation.Result r) {
    return new HashSet<>(r.citedKeys()).equals(new HashSet<>(r.evalCase().expectedCited()));
  }

  private static ModelUsage sum(List<Evaluation.Result> results) {
    return results.stream().map(Evaluation.Result::usage).reduce(ModelUsage.NONE, ModelUsage::plus);
  }

  /**
   * The value at percentile {@code p} of sorted {@code values}, by nearest rank: the smallest value
   * with at least p% of the values at or below it; null for none.
   */
  static Long percentile(long[] values, int p) {
    if (values.length == 0) return null;
    int rank = (int) Math.ceil(p / 100.0 * values.length);
    return values[Math.max(rank, 1) - 1];
  }

  private static Double ratio(long part, long whole) {
    return whole == 0 ? null : (double) part / whole;
  }

  Double accuracy() {
    return ratio(tp + tn, answered.size());
  }

  Double precision() {
    return ratio(tp, tp + fp);
  }

  Double recall() {
    return ratio(tp, tp + fn);
  }

  Double f1() {
    Double p = precision();
    Double r = recall();
    if (p == null || r == null) return null;
    return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
  }

  Double citationAccuracy() {
    return ratio(citedRight, tp);
  }

  private Double perVerdict(long tokens) {
    return answered.isEmpty() ? null : (double) tokens / answered.size();
  }

  private BigDecimal costPerVerdict() {
    return ofAnswered.cost() == null || answered.isEmpty()
        ? null
        : ofAnswered
            .cost()
            .divide(BigDecimal.valueOf(answered.size()), AVERAGE)
            .stripTrailingZeros();
  }

  /** Every call's cost: null without a price. */
  private BigDecimal totalCost() {
    return price == null || total.cost() == null ? null : total.cost().stripTrailingZeros();
  }

  /**
   * Which verdict prompt was asked: the first 12 hex digits of the SHA-256 of its instructions,
   * schema, and the user prompt it builds for a fixed item, so any change to what is sent changes
   * it.
   */
  public static String promptVersion() {
    VerdictPrompt probe =
        VerdictPrompt.build(
            "a condition",
            List.of(
                new VerdictPrompt.Candidate(
                    "https://example.org/item",
                    "A title",
                    "2025-01-01T00:00:00Z",
                    "official",
                    "A text.")));
    String sent =
        probe.prompt().system() + "\n" + probe.prompt().user() + "\n" + probe.prompt().schema();
    return HexFormat.of().formatHex(Sha256.of(sent)).substring(0, 12);
  }

  /** The report as one JSON object (docs/evaluation.md). */
  public ObjectNode json() {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("model", model);
    json.put("prompt", promptVersion());
    json.put("cases", results.size());
    json.put("answered", answered.size());
    json.put("errors", results.size() - answered.size());
    ObjectNode met = json.putObject("met");
    number(met, "accuracy", accuracy());
    number(met, "precision", precision());
    number(met, "recall", recall());
    number(met, "f1", f1());
    met.put("truePositives", tp)
        .put("falsePositives", fp)
        .put("falseNegatives", fn)
        .put("trueNegatives", tn);
    ObjectNode citations = json.putObject("citations");
    number(citations, "accuracy", citationAccuracy());
    citations.put("checked", tp).put("right", citedRight);
    ObjectNode tokens = json.putObject("tokens");
    tokens
        .put("calls", total.calls())
        .put("input", total.inputTokens())
        .put("cachedInput", total.cachedInputTokens())
        .put("output", total.outputTokens());
    number(tokens, "inputPerVerdict", perVerdict(ofAnswered.inputTokens()));
    number(tokens, "outputPerVerdict", perVerdict(ofAnswered.outputTokens()));
    ObjectNode latency = json.putObject("latencyMs");
    number(latency, "p50", percentile(latenciesMs, 50));
    number(latency, "p95", percentile(latenciesMs, 95));
    if (totalCost() == null) json.putNull("cost");
    else {
      ObjectNode cost = json.putObject("cost");
      cost.put("total", totalCost());
      cost.put("perVerdict", costPerVerdict());
      cost.set("pricesPerMillion", Json.MAPPER.valueToTree(price));
    }
    ObjectNode categories = json.putObject("categories");
    categories()
        .forEach(
            (name, tally) -> {
              ObjectNode c = categories.putObject(name);
              c.put("cases", tally.cases)
                  .put("answered", tally.answered)
                  .put("correct", tally.correct);
              number(c, "accuracy", ratio(tally.correct, tally.answered));
            });
    ArrayNode each = json.putArray("results");
    for (Evaluation.Result r : results) {
      ObjectNode o = each.addObject();
      o.put("id", r.evalCase().id()).put("category", r.evalCase().category());
      o.put("expectedMet", r.evalCase().expectedMet());
      if (r.answered()) {
        o.put("met", r.verdict().met()).put("confidence", r.verdict().confidence());
        o.put("correct", r.verdict().met() == r.evalCase().expectedMet());
      } else o.putNull("met").putNull("confidence").putNull("correct");
      o.set("expectedCited", Json.MAPPER.valueToTree(r.evalCase().expectedCited()));
      o.set("cited", Json.MAPPER.valueToTree(r.citedKeys()));
      o.put("latencyMs", r.latency().toMillis());
      o.put("inputTokens", r.usage().inputTokens()).put("outputTokens", r.usage().outputTokens());
      if (r.error() == null) o.putNull("error");
      else o.put("error", r.error());
    }
    return json;
  }

  private static void number(ObjectNode node, String field, Double value) {
    if (value == null) node.putNull(field);
    else node.put(field, Math.round(value * 10_000) / 10_000.0);
  }

  private static void number(ObjectNode node, String field, Long value) {
    if (value == null) node.putNull(field);
    else node.put(field, value);
  }

  private static final class Tally {
    int cases;
    int answered;
    int correct;
  }

  /** Per category, in the order the cases name them. */
  private Map<String, Tally> categories() {
    Map<String, Tally> tallies = new LinkedHashMap<>();
    for (Evaluation.Result r : results) {
      Tally t = tallies.computeIfAbsent(r.evalCase().category(), k -> new Tally());
      t.cases++;
      if (r.answered()) {
        t.answered++;
        if (r.verdict().met() == r.evalCase().expectedMet()) t.correct++;
      }
    }
    return tallies;
  }

  /** The report for a person (docs/evaluation.md shows one). */
  public String text() {
    StringBuilder out = new StringBuilder();
    line(out, "model", model + ", prompt " + promptVersion());
    int errors = results.size() - answered.size();
    line(
        out,
        "cases",
        results.size()
            + ": "
            + answered.size()
            + " answered, "
            + errors
            + (errors == 1 ? " error" : " errors"));
    line(
        out,
        "met",
        "accuracy %s  precision %s  recall %s  F1 %s  (TP %d, FP %d, FN %d, TN %d)"
            .formatted(
                ratioText(accuracy()),
                ratioText(precision()),
                ratioText(recall()),
                ratioText(f1()),
                tp,
                fp,
                fn,
                tn));
    line(
        out,
        "citations",
        "%s (%d of %d true positives cite exactly the labelled items)"
            .formatted(ratioText(citationAccuracy()), citedRight, tp));
    line(
        out,
        "tokens",
        "per verdict %s in, %s out; in all %d in (%d cached), %d out in %d calls"
            .formatted(
                tokensText(perVerdict(ofAnswered.inputTokens())),
                tokensText(perVerdict(ofAnswered.outputTokens())),
                total.inputTokens(),
                total.cachedInputTokens(),
                total.outputTokens(),
                total.calls()));
    line(
        out,
        "latency",
        latenciesMs.length == 0
            ? "n/a"
            : "p50 %d ms, p95 %d ms"
                .formatted(percentile(latenciesMs, 50), percentile(latenciesMs, 95)));
    line(
        out,
        "cost",
        totalCost() == null
            ? "unknown: no price given (--price-in and --price-out, per million tokens)"
            : "per verdict %s, in all %s (per million tokens: %s)"
                .formatted(
                    costPerVerdict() == null ? "n/a" : costPerVerdict().toPlainString(),
                    totalCost().toPlainString(),
                    pricesText()));
    out.append(
        String.format(
            Locale.ROOT,
            "%-18s %5s %8s %7s %8s\n",
            "category",
            "cases",
            "answered",
            "correct",
            "accuracy"));
    categories()
        .forEach(
            (name, t) ->
                out.append(
                    String.format(
                        Locale.ROOT,
                        "  %-16s %5d %8d %7d %8s\n",
                        name,
                        t.cases,
                        t.answered,
                        t.correct,
                        ratioText(ratio(t.correct, t.answered)))));
    if (errors > 0) {
      out.append("errors\n");
      for (Evaluation.Result r : results)
        if (!r.answered())
          out.append("  ").append(r.evalCase().id()).append(": ").append(r.error()).append('\n');
    }
    return out.toString();
  }

  private String pricesText() {
    StringJoiner prices = new StringJoiner(", ");
    prices.add("input " + price.inputPerMillion().toPlainString());
    if (price.cachedInputPerMillion() != null)
      prices.add("cached input " + price.cachedInputPerMillion().toPlainString());
    prices.add("output " + price.outputPerMillion().toPlainString());
    return prices.toString();
  }

  private static void line(StringBuilder out, String label, String value) {
    out.append(String.format(Locale.ROOT, "%-10s %s\n", label, value));
  }

  private static String ratioText(Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%.3f", value);
  }

  private static String tokensText(Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }
}
