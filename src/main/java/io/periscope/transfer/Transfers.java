package io.periscope.transfer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.account.AccountEntity;
import io.periscope.auth.Role;
import io.periscope.channels.ChannelAddresses;
import io.periscope.channels.ChannelAddressesEntity;
import io.periscope.channels.SealedChannels;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.notify.ChannelPolicy;
import io.periscope.quota.QuotaPolicy;
import io.periscope.trust.TrustRule;
import io.periscope.trust.TrustRuleValidator;
import io.periscope.trust.TrustRulesEntity;
import io.periscope.watch.Actor;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchValidator;
import io.periscope.watches.Watches;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * Export and import of one account's watches, trust rules and e-mail channel addresses as one JSON
 * document, to move them within an instance or to another (ids kept). An import checks everything
 * first — each watch as a create would (its fields, its channels, the account's quotas) and against
 * the account's own watches, and the trust rules against the most an account may have — and writes
 * nothing unless all of it can be imported.
 */
public final class Transfers {
  public static final String FORMAT = "periscope-export";
  public static final int VERSION = 1;

  private final AccountEntity.Refs accountRefs;
  private final Watches watches;
  private final TrustRulesEntity.Refs trustRules;
  private final ChannelAddresses channelAddresses;
  private final ChannelPolicy channels;
  private final SealedChannels sealed;
  private final QuotaPolicy quotas;
  private final Asks asks;
  private final java.time.ZoneId scheduleZone;
  private final Clock clock;

  public Transfers(
      AccountEntity.Refs accountRefs,
      Watches watches,
      TrustRulesEntity.Refs trustRules,
      ChannelAddresses channelAddresses,
      ChannelPolicy channels,
      SealedChannels sealed,
      QuotaPolicy quotas,
      Asks asks,
      java.time.ZoneId scheduleZone,
      Clock clock) {
    this.accountRefs = accountRefs;
    this.watches = watches;
    this.trustRules = trustRules;
    this.channelAddresses = channelAddresses;
    this.channels = channels;
    this.sealed = sealed;
    this.quotas = quotas;
    this.asks = asks;
    this.scheduleZone = scheduleZone;
    this.clock = clock;
  }

  /** The document: its format and version, when, and the accounts it holds. */
  public record Document(
      String format, int version, Instant exportedAt, List<AccountData> accounts) {}

  /**
   * One account's data. {@code email} and {@code role} say whom it was; an import does not create
   * or change accounts.
   */
  public record AccountData(
      String id,
      String email,
      String role,
      List<Watch> watches,
      List<TrustRule> trustRules,
      Channels channels) {}

  /** The account's e-mail channel addresses that were confirmed. */
  public record Channels(List<String> emailAddresses) {}

  /** What an import did, or would not do, for each watch and address. */
  public record Report(
      String accountId,
      boolean imported,
      List<WatchResult> watches,
      int trustRules,
      List<AddressResult> emailAddresses) {}

  /**
   * A watch of an import: {@code created}, {@code unchanged} (the account has it, the same), or,
   * when nothing was imported, {@code conflict} (the account has another watch of that id) or
   * {@code invalid}, with the problem.
   */
  public record WatchResult(String id, String status, String problem) {}

  /**
   * An address: {@code confirmed} already, {@code mailed} a confirmation, or {@code not-mailed}.
   */
  public record AddressResult(String address, String status, String problem) {}

  /** An import that imported nothing: its report says why, watch by watch. */
  public static final class Refused extends RuntimeException {
    private final transient Report report;

    public Refused(Report report) {
      super("nothing was imported: a watch conflicts with the account's or is invalid");
      this.report = report;
    }

    public Report report() {
      return report;
    }
  }

  // ---- export

  /**
   * The document of one account.
   *
   * @param sealedCredentials the channels' credentials sealed (importable where the same
   *     ENCRYPTION_KEY is), else masked
   */
  public CompletionStage<Document> export(String accountId, boolean sealedCredentials) {
    return account(accountId, sealedCredentials)
        .thenApply(a -> new Document(FORMAT, VERSION, clock.instant(), List.of(a)));
  }

  /** One account's data, as an export holds it ({@link #export}). */
  public CompletionStage<AccountData> account(String accountId, boolean sealedCredentials) {
    CompletionStage<io.periscope.account.Account> account =
        asks.ask(accountRefs.account(accountId), AccountEntity.GetAccount::new);
    return account.thenCompose(
        a ->
            liveWatches(accountId)
                .thenCombine(
                    asks.<TrustRulesEntity.Command, TrustRulesEntity.Rules>ask(
                        trustRules.trustRules(accountId), TrustRulesEntity.GetRules::new),
                    (ws, rules) -> new Object[] {ws, rules.rules()})
                .thenCombine(
                    channelAddresses.list(accountId),
                    (both, addresses) -> {
                      @SuppressWarnings("unchecked")
                      List<Watch> ws =
                          ((List<Watch>) both[0])
                              .stream()
                                  .map(
                                      w ->
                                          sealedCredentials
                                              ? sealed.seal(w)
                                              : SealedChannels.mask(w))
                                  .toList();
                      @SuppressWarnings("unchecked")
                      List<TrustRule> rules = (List<TrustRule>) both[1];
                      return new AccountData(
                          a.id(),
                          a.email(),
                          a.role().wire(),
                          ws,
                          rules,
                          new Channels(
                              addresses.addresses().stream()
                                  .filter(ChannelAddressesEntity.Address::confirmed)
                                  .map(ChannelAddressesEntity.Address::address)
                                  .toList()));
                    }));
  }

  private CompletionStage<List<Watch>> liveWatches(String accountId) {
    return watches.list(accountId);
  }

  // ---- import

  /**
   * The account of the document to import into {@code accountId}: the one of that id, or, when
   * {@code anyOne}, its only account whatever its id.
   *
   * @throws ValidationException when the body is no export document, or holds no such account
   */
  public static JsonNode accountNode(JsonNode body, String accountId, boolean anyOne) {
    List<JsonNode> accounts = accounts(body);
    if (anyOne && accounts.size() == 1) return accounts.get(0);
    return accounts.stream()
        .filter(a -> accountId.equals(a.path("id").asText()))
        .findFirst()
        .orElseThrow(
            () ->
                new ValidationException(
                    List.of(Issue.at("holds no account " + accountId, "accounts"))));
  }

  /** The accounts of an export document, its format and version checked. */
  public static List<JsonNode> accounts(JsonNode body) {
    if (body == null
        || !body.isObject()
        || !FORMAT.equals(body.path("format").asText())
        || body.path("version").asInt() != VERSION
        || !body.path("accounts").isArray())
      throw new ValidationException(
          List.of(
              Issue.at(
                  "must be a " + FORMAT + " document of version " + VERSION + " with accounts")));
    List<JsonNode> accounts = new ArrayList<>();
    for (JsonNode a : body.get("accounts")) {
      if (!a.isObject() || !a.path("id").isTextual())
        throw new ValidationException(
            List.of(Issue.at("must be an object with an id", "accounts")));
      accounts.add(a);
    }
    return accounts;
  }

  /**
   * Imports one account's data from {@code body} into {@code accountId}: writes nothing and fails
   * with {@link Refused} when any watch conflicts or is invalid; fails with a validation error or
   * an over-quota refusal as a create would.
   */
  public CompletionStage<Report> importInto(String accountId, Role role, JsonNode accountNode) {
    List<JsonNode> watchNodes = new ArrayList<>();
    accountNode.path("watches").forEach(watchNodes::add);
    List<TrustRule> rules = new ArrayList<>();
    List<Issue> ruleIssues = new ArrayList<>();
    int index = 0;
    for (JsonNode r : accountNode.path("trustRules")) {
      try {
        ObjectNode tier = Json.MAPPER.createObjectNode();
        tier.set("tier", r.path("tier"));
        rules.add(TrustRuleValidator.validate(r.path("pattern").asText(""), tier));
      } catch (ValidationException e) {
        ruleIssues.add(Issue.at("is not a valid trust rule", "trustRules", index));
      }
      index++;
    }
    if (!ruleIssues.isEmpty()) throw new ValidationException(ruleIssues);
    List<String> addresses = new ArrayList<>();
    accountNode.path("channels").path("emailAddresses").forEach(e -> addresses.add(e.asText()));
    return asks.<TrustRulesEntity.Command, TrustRulesEntity.Rules>ask(
            trustRules.trustRules(accountId), TrustRulesEntity.GetRules::new)
        .thenCompose(
            have -> {
              requireRoomForRules(have.rules(), rules);
              return importChecked(accountId, role, watchNodes, rules, addresses);
            });
  }

  /**
   * Fails with a 400 at {@code trustRules} when the account's rules and the document's new patterns
   * would pass {@link TrustRulesEntity#MAX_RULES}: checked with the rest, before anything is
   * written.
   */
  private static void requireRoomForRules(List<TrustRule> have, List<TrustRule> wanted) {
    Set<String> patterns = new HashSet<>();
    have.forEach(r -> patterns.add(r.pattern()));
    wanted.forEach(r -> patterns.add(r.pattern()));
    if (patterns.size() > TrustRulesEntity.MAX_RULES)
      throw new ValidationException(
          List.of(
              Issue.at(
                  "the account would have "
                      + patterns.size()
                      + " trust rules, more than the "
                      + TrustRulesEntity.MAX_RULES
                      + " an account may have: nothing was imported",
                  "trustRules")));
  }

  private CompletionStage<Report> importChecked(
      String accountId,
      Role role,
      List<JsonNode> watchNodes,
      List<TrustRule> rules,
      List<String> addresses) {
    // every watch checked before anything is written
    Map<String, Optional<Watch>> valid = new LinkedHashMap<>();
    Map<String, Watch> toStore = new LinkedHashMap<>();
    Map<String, String> problems = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < watchNodes.size(); i++) {
      JsonNode node = watchNodes.get(i);
      String id = node.path("id").asText("#" + i);
      if (!seen.add(id)) {
        problems.put(id, "the document holds two watches of this id");
        continue;
      }
      try {
        // a masked credential cannot be imported: the export must have sealed it
        SealedChannels.Opened opened = sealed.open(node, List.of());
        Watch watch = WatchValidator.validate(opened.body(), null, accountId, scheduleZone);
        valid.put(id, Optional.of(watch));
        toStore.put(id, opened.store(watch));
      } catch (ValidationException e) {
        problems.put(id, describe(e));
      }
    }
    List<CompletableFuture<Void>> checks = new ArrayList<>();
    Map<String, String> statuses = new java.util.concurrent.ConcurrentHashMap<>();
    Map<String, String> later = new java.util.concurrent.ConcurrentHashMap<>();
    Set<String> conflicts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    for (Map.Entry<String, Optional<Watch>> entry : valid.entrySet()) {
      Watch watch = entry.getValue().orElseThrow();
      checks.add(
          watches
              .find(accountId, watch.id())
              .thenCompose(
                  existing -> {
                    if (existing.isPresent()) {
                      if (opened(existing.get()).equals(watch))
                        statuses.put(watch.id(), "unchanged");
                      else {
                        conflicts.add(watch.id());
                        later.put(watch.id(), "the account has another watch of this id");
                      }
                      return CompletableFuture.completedFuture(null);
                    }
                    return channels
                        .refusals(accountId, watch.channels())
                        .thenCompose(
                            refused -> {
                              if (!refused.isEmpty()) {
                                later.put(
                                    watch.id(), "channels: " + String.join("; ", refused.values()));
                                return CompletableFuture.completedFuture(null);
                              }
                              return quotas
                                  .check(accountId, role, watch)
                                  .handle(
                                      (ok, failure) -> {
                                        if (failure != null)
                                          later.put(watch.id(), problem(Failures.unwrap(failure)));
                                        else statuses.put(watch.id(), "created");
                                        return null;
                                      });
                            });
                  })
              .thenApply(x -> (Void) null)
              .toCompletableFuture());
    }
    return CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new))
        .thenCompose(
            checked -> {
              problems.putAll(later);
              List<String> toCreate =
                  statuses.entrySet().stream()
                      .filter(e -> e.getValue().equals("created"))
                      .map(Map.Entry::getKey)
                      .toList();
              return quotas
                  .checkRoom(accountId, role, toCreate.size())
                  .handle(
                      (ok, failure) -> {
                        // past the watch quota: refused as a create would be, when nothing else is
                        if (failure != null && problems.isEmpty())
                          return Failures.<Report>rethrow(Failures.unwrap(failure));
                        return null;
                      })
                  .thenCompose(
                      ignored -> {
                        if (!problems.isEmpty()) {
                          List<WatchResult> results = new ArrayList<>();
                          for (JsonNode node : watchNodes) {
                            String id = node.path("id").asText();
                            results.add(
                                problems.containsKey(id)
                                    ? new WatchResult(
                                        id,
                                        conflicts.contains(id) ? "conflict" : "invalid",
                                        problems.get(id))
                                    : new WatchResult(id, statuses.getOrDefault(id, "ok"), null));
                          }
                          throw new Refused(new Report(accountId, false, results, 0, List.of()));
                        }
                        return write(accountId, toStore, statuses, rules, addresses);
                      });
            });
  }

  private CompletionStage<Report> write(
      String accountId,
      Map<String, Watch> valid,
      Map<String, String> statuses,
      List<TrustRule> rules,
      List<String> addresses) {
    // the rules in one write, refused whole if others were added since the check: no watch yet
    CompletableFuture<Done> done =
        asks.<TrustRulesEntity.Command, Integer>ask(
                trustRules.trustRules(accountId), r -> new TrustRulesEntity.PutAll(rules, r))
            .exceptionally(
                Refusal.as(
                    Refusal.Kind.CONFLICT,
                    "nothing was imported: the account's trust rules changed meanwhile and would"
                        + " pass the most it may have"))
            .thenApply(x -> Done.getInstance())
            .toCompletableFuture();
    List<WatchResult> results = new ArrayList<>();
    for (Watch watch : valid.values()) {
      String status = statuses.get(watch.id());
      results.add(new WatchResult(watch.id(), status, null));
      if (!"created".equals(status)) continue;
      done =
          done.thenCompose(
              d ->
                  watches
                      .write(watch, Actor.importBy(accountId), null)
                      .thenApply(x -> Done.getInstance())
                      .toCompletableFuture());
    }
    return done.thenCompose(d -> addresses(accountId, addresses))
        .thenApply(mailed -> new Report(accountId, true, results, rules.size(), mailed));
  }

  /** Asks each address not yet confirmed for the account to confirm it again. */
  private CompletionStage<List<AddressResult>> addresses(String accountId, List<String> wanted) {
    return channelAddresses
        .list(accountId)
        .thenCompose(
            have -> {
              Set<String> confirmed = new HashSet<>();
              have.addresses().stream()
                  .filter(ChannelAddressesEntity.Address::confirmed)
                  .forEach(a -> confirmed.add(a.address()));
              CompletableFuture<List<AddressResult>> out =
                  CompletableFuture.completedFuture(new ArrayList<>());
              for (String address : wanted) {
                out =
                    out.thenCompose(
                        list -> {
                          if (confirmed.contains(address)) {
                            list.add(new AddressResult(address, "confirmed", null));
                            return CompletableFuture.completedFuture(list);
                          }
                          CompletionStage<Done> asked;
                          try {
                            asked = channelAddresses.request(accountId, address);
                          } catch (RuntimeException e) {
                            asked = CompletableFuture.failedFuture(e);
                          }
                          return asked
                              .handle(
                                  (ok, failure) -> {
                                    list.add(
                                        failure == null
                                            ? new AddressResult(address, "mailed", null)
                                            : new AddressResult(
                                                address,
                                                "not-mailed",
                                                problem(Failures.unwrap(failure))));
                                    return list;
                                  })
                              .toCompletableFuture();
                        });
              }
              return out;
            });
  }

  /** The watch with its channels in plain text; one this keyring cannot open as it is. */
  private Watch opened(Watch watch) {
    try {
      return watch.withChannels(watch.channels().stream().map(sealed::open).toList());
    } catch (IllegalStateException e) {
      return watch;
    }
  }

  private static String describe(ValidationException e) {
    return e.issues().stream()
        .map(
            i ->
                String.join(".", i.path().stream().map(String::valueOf).toList())
                    + " "
                    + i.message())
        .reduce((a, b) -> a + "; " + b)
        .orElse("invalid");
  }

  private static String problem(Throwable t) {
    if (t instanceof ValidationException v) return describe(v);
    if (t instanceof Refusal r) return r.getMessage();
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
