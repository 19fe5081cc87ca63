package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.CONFLICT;
import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.runtime.Entities;
import io.periscope.trust.DomainPattern;
import io.periscope.trust.TrustRule;
import io.periscope.trust.TrustRuleValidator;
import io.periscope.trust.TrustRulesEntity;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * /trust-rules: the caller's domain patterns and their trust tiers, each rule addressed by its
 * pattern. Rules live in the caller's own entity, so another owner's rules are never reachable.
 */
public final class TrustRoutes implements Routes {
  private final Entities entities;
  private final Asks asks;
  private final long maxBody;

  public TrustRoutes(Entities entities, Asks asks, long maxBody) {
    this.entities = entities;
    this.asks = asks;
    this.maxBody = maxBody;
  }

  /** The body of GET /trust-rules, by pattern. */
  public record RuleList(List<TrustRule> rules) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/trust-rules",
            (caller, p) ->
                answer(rules(caller.accountId()).thenApply(rules -> ok(new RuleList(rules))))),
        new Endpoint(
            GET,
            "/trust-rules/{pattern}",
            (caller, p) -> answer(read(caller.accountId(), p.get("pattern")))),
        new Endpoint(
            PUT,
            "/trust-rules/{pattern}",
            (caller, p) ->
                jsonBody(maxBody, body -> answer(set(caller.accountId(), p.get("pattern"), body)))),
        new Endpoint(
            DELETE,
            "/trust-rules/{pattern}",
            (caller, p) -> answer(remove(caller.accountId(), p.get("pattern")))));
  }

  private CompletionStage<List<TrustRule>> rules(String accountId) {
    return asks.<TrustRulesEntity.Command, TrustRulesEntity.Rules>ask(
            entities.trustRules(accountId), TrustRulesEntity.GetRules::new)
        .thenApply(TrustRulesEntity.Rules::rules);
  }

  private CompletionStage<Reply> read(String accountId, String pattern) {
    Optional<String> normalized = normalized(pattern);
    if (normalized.isEmpty()) return CompletableFuture.failedFuture(noSuchRule());
    return rules(accountId)
        .thenApply(
            rules ->
                rules.stream()
                    .filter(r -> r.pattern().equals(normalized.get()))
                    .findFirst()
                    .map(Reply::ok)
                    .orElseThrow(TrustRoutes::noSuchRule));
  }

  private CompletionStage<Reply> set(String accountId, String pattern, JsonNode body) {
    TrustRule rule = TrustRuleValidator.validate(pattern, body);
    return asks.<TrustRulesEntity.Command, TrustRule>ask(
            entities.trustRules(accountId), r -> new TrustRulesEntity.Put(rule, r))
        .thenApply(Reply::ok)
        .exceptionally(Refusal.as(CONFLICT));
  }

  private CompletionStage<Reply> remove(String accountId, String pattern) {
    Optional<String> normalized = normalized(pattern);
    if (normalized.isEmpty()) return CompletableFuture.failedFuture(noSuchRule());
    return asks.<TrustRulesEntity.Command, Done>ask(
            entities.trustRules(accountId), r -> new TrustRulesEntity.Remove(normalized.get(), r))
        .thenApply(done -> Reply.noContent())
        .exceptionally(Refusal.as(NOT_FOUND, RULE_NOT_FOUND));
  }

  /**
   * A pattern is found however it is written (case, Unicode or punycode); one that is no pattern is
   * never found.
   */
  private static Optional<String> normalized(String pattern) {
    return DomainPattern.parse(pattern).map(DomainPattern::text);
  }

  private static final String RULE_NOT_FOUND = "trust rule not found";

  private static Refusal noSuchRule() {
    return new Refusal(NOT_FOUND, RULE_NOT_FOUND);
  }
}
