package io.periscope.http;

import static io.periscope.http.ApiDirectives.adminOnly;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.account.Accounts;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.quota.QuotaPolicy;
import io.periscope.quota.Quotas;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Quotas: {@code GET /quotas} shows the caller's own; administrators see every account's usage
 * against its quotas ({@code GET /admin/quotas}, {@code GET /admin/users/:id/quotas}) and override
 * an account's ({@code PUT /admin/users/:id/quotas}).
 */
public final class QuotaRoutes implements Routes {
  private static final long MAX_BODY = 4 * 1024;
  private static final String NO_SUCH_ACCOUNT = "account not found";
  // bounds that keep a budget a number a person means, not a disguised "no limit" (null is that)
  private static final long MAX_TOKENS_PER_MONTH = 1_000_000_000_000L;
  private static final BigDecimal MAX_COST_PER_MONTH = new BigDecimal("1000000000");

  private final QuotaPolicy quotas;
  private final Accounts accounts;

  public QuotaRoutes(QuotaPolicy quotas, Accounts accounts) {
    this.quotas = quotas;
    this.accounts = accounts;
  }

  /** The body of GET /admin/quotas: every account's quotas and usage, by id. */
  public record QuotaList(Quotas defaults, List<QuotaPolicy.Report> accounts) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/quotas",
            (caller, p) -> answer(quotas.report(caller.accountId()).thenApply(Reply::ok))),
        new Endpoint(GET, "/admin/quotas", (caller, p) -> adminOnly(caller, () -> answer(all()))),
        new Endpoint(
            GET,
            "/admin/users/{id}/quotas",
            (caller, p) ->
                adminOnly(
                    caller,
                    () ->
                        answer(
                            quotas
                                .report(p.get("id"))
                                .thenApply(Reply::ok)
                                .exceptionally(
                                    Refusal.as(Refusal.Kind.NOT_FOUND, NO_SUCH_ACCOUNT))))),
        new Endpoint(
            PUT,
            "/admin/users/{id}/quotas",
            (caller, p) ->
                adminOnly(
                    caller,
                    () ->
                        jsonBody(
                            MAX_BODY,
                            body ->
                                answer(
                                    quotas
                                        .override(p.get("id"), overrides(body), caller.accountId())
                                        .thenApply(Reply::ok)
                                        .exceptionally(
                                            Refusal.as(
                                                Refusal.Kind.NOT_FOUND, NO_SUCH_ACCOUNT)))))));
  }

  private CompletionStage<Reply> all() {
    return accounts
        .list()
        .thenCompose(
            list -> {
              List<CompletableFuture<QuotaPolicy.Report>> reports =
                  list.stream().map(a -> quotas.report(a.id()).toCompletableFuture()).toList();
              return CompletableFuture.allOf(reports.toArray(CompletableFuture[]::new))
                  .thenApply(
                      done ->
                          ok(
                              new QuotaList(
                                  quotas.defaults(),
                                  reports.stream().map(CompletableFuture::join).toList())));
            });
  }

  /**
   * The overrides of a body: each quota a positive whole number (the month's cost a positive
   * decimal), or null (or absent) for the operator's default; nothing else.
   */
  static Quotas overrides(JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    if (!body.isObject()) throw new ValidationException(List.of(Issue.at("must be an object")));
    List<String> counts =
        List.of(
            Quotas.MAX_WATCHES,
            Quotas.MAX_SOURCES_PER_WATCH,
            Quotas.MIN_INTERVAL_MINUTES,
            Quotas.MODEL_CALLS_PER_DAY);
    body.fieldNames()
        .forEachRemaining(
            name -> {
              if (!counts.contains(name)
                  && !name.equals(Quotas.MODEL_TOKENS_PER_MONTH)
                  && !name.equals(Quotas.MODEL_COST_PER_MONTH))
                issues.add(Issue.at("is not a quota", name));
            });
    Integer[] values = new Integer[counts.size()];
    for (int i = 0; i < counts.size(); i++) {
      JsonNode value = body.get(counts.get(i));
      if (value == null || value.isNull()) continue;
      if (value.canConvertToExactIntegral() && value.asLong() >= 1 && value.asLong() <= 1_000_000)
        values[i] = value.asInt();
      else
        issues.add(
            Issue.at(
                "must be a whole number from 1 to 1000000, or null for the default",
                counts.get(i)));
    }
    Long tokens = null;
    JsonNode tokenValue = body.get(Quotas.MODEL_TOKENS_PER_MONTH);
    if (tokenValue != null && !tokenValue.isNull()) {
      if (tokenValue.canConvertToExactIntegral()
          && tokenValue.asLong() >= 1
          && tokenValue.asLong() <= MAX_TOKENS_PER_MONTH) tokens = tokenValue.asLong();
      else
        issues.add(
            Issue.at(
                "must be a whole number from 1 to " + MAX_TOKENS_PER_MONTH + ", or null",
                Quotas.MODEL_TOKENS_PER_MONTH));
    }
    BigDecimal cost = null;
    JsonNode costValue = body.get(Quotas.MODEL_COST_PER_MONTH);
    if (costValue != null && !costValue.isNull()) {
      if (costValue.isNumber()
          && costValue.decimalValue().signum() > 0
          && costValue.decimalValue().compareTo(MAX_COST_PER_MONTH) <= 0)
        cost = costValue.decimalValue().stripTrailingZeros();
      else
        issues.add(
            Issue.at(
                "must be a number above 0 and at most " + MAX_COST_PER_MONTH + ", or null",
                Quotas.MODEL_COST_PER_MONTH));
    }
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return new Quotas(values[0], values[1], values[2], values[3], tokens, cost);
  }
}
