package io.periscope.account;

import io.periscope.auth.AdminTurnsEntity;
import io.periscope.auth.AuditLogEntity;
import io.periscope.auth.EmailEntity;
import io.periscope.auth.EmailIndex;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.persistence.JournalErasure;
import io.periscope.trust.TrustRule;
import io.periscope.trust.TrustRulesEntity;
import io.periscope.watch.Actor;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What administrators do to accounts: list them with filters, disable and enable them, change their
 * role, mail a password reset, and delete them. Every action is recorded in the audit log ({@link
 * AuditLogEntity}). The last enabled administrator can be neither demoted, disabled nor deleted. A
 * change ends or changes access on this node at once, on every other within {@link
 * AccountAccess#FRESH_FOR}.
 */
public final class AccountAdmin {
  private static final Logger log = LoggerFactory.getLogger(AccountAdmin.class);

  private final Accounts accounts;
  private final AccountEntity.Refs accountRefs;
  private final WatchEntity.Refs watches;
  private final TrustRulesEntity.Refs trustRules;
  private final AuditLogEntity.Refs audit;
  private final EmailIndex emails;
  private final AccountAccess access;
  private final SelfService selfService;
  private final JournalErasure erasure;
  private final List<AccountDataEraser> erasers;
  private final AdminTurnsEntity.Refs adminTurns;
  private final Asks asks;
  private final Clock clock;

  public AccountAdmin(
      Accounts accounts,
      AccountEntity.Refs accountRefs,
      WatchEntity.Refs watches,
      TrustRulesEntity.Refs trustRules,
      AuditLogEntity.Refs audit,
      AdminTurnsEntity.Refs adminTurns,
      EmailEntity.Refs emailEntities,
      AccountAccess access,
      SelfService selfService,
      JournalErasure erasure,
      List<AccountDataEraser> erasers,
      Asks asks,
      Clock clock) {
    this.accounts = accounts;
    this.accountRefs = accountRefs;
    this.watches = watches;
    this.trustRules = trustRules;
    this.audit = audit;
    this.adminTurns = adminTurns;
    this.emails = new EmailIndex(emailEntities, asks);
    this.access = access;
    this.selfService = selfService;
    this.erasure = erasure;
    this.erasers = List.copyOf(erasers);
    this.asks = asks;
    this.clock = clock;
  }

  /** The last enabled administrator stays one. */
  public static final class LastAdmin extends Refusal {
    LastAdmin() {
      super(
          Kind.CONFLICT,
          "this is the last enabled administrator: make another one first, then try again");
    }
  }

  // ---- listing --------------------------------------------------------------------------------

  /**
   * Which accounts a listing shows; null fields match everything.
   *
   * @param status {@code active} or {@code disabled}
   * @param text a part of the id or the address, any case
   */
  public record Filter(Role role, String status, String text) {
    /**
     * @throws ValidationException for a role or status that is none
     */
    public static Filter of(String role, String status, String text) {
      List<Issue> issues = new ArrayList<>();
      Optional<Role> r = role == null ? Optional.empty() : Role.parse(role);
      if (role != null && r.isEmpty()) issues.add(Issue.at("must be 'user' or 'admin'", "role"));
      if (status != null && !status.equals("active") && !status.equals("disabled"))
        issues.add(Issue.at("must be 'active' or 'disabled'", "status"));
      if (!issues.isEmpty()) throw new ValidationException(issues);
      return new Filter(
          r.orElse(null), status, text == null ? null : text.toLowerCase(Locale.ROOT).strip());
    }

    boolean matches(Account.View a) {
      return (role == null || role.wire().equals(a.role()))
          && (status == null || status.equals("disabled") == a.disabled())
          && (text == null
              || a.id().toLowerCase(Locale.ROOT).contains(text)
              || a.email().toLowerCase(Locale.ROOT).contains(text));
    }
  }

  public CompletionStage<List<Account.View>> list(Filter filter) {
    return accounts.list().thenApply(all -> all.stream().filter(filter::matches).toList());
  }

  // ---- changes --------------------------------------------------------------------------------

  public CompletionStage<Account.View> disable(Principal by, String accountId) {
    return guarded(
        accountId,
        () ->
            change(
                accountId,
                reply -> new AccountEntity.SetDisabled(true, reply),
                by,
                "disable",
                null));
  }

  public CompletionStage<Account.View> enable(Principal by, String accountId) {
    return change(
        accountId, reply -> new AccountEntity.SetDisabled(false, reply), by, "enable", null);
  }

  public CompletionStage<Account.View> setRole(Principal by, String accountId, Role role) {
    Supplier<CompletionStage<Account.View>> change =
        () ->
            change(
                accountId,
                reply -> new AccountEntity.ChangeRole(role, reply),
                by,
                "set-role",
                role.wire());
    return role == Role.ADMIN ? change.get() : guarded(accountId, change);
  }

  /**
   * A password reset as it reached the account: mailed ({@code printed} null), or, without SMTP and
   * for the operator, a one-time password to hand over.
   */
  public record PasswordReset(Account.View user, SelfService.IssuedReset printed) {}

  /**
   * Mails the account a password-reset link. Without SMTP the operator (the command line) gets the
   * reset token to print instead; an administrator gets {@link SelfService.MailNotConfigured}.
   */
  public CompletionStage<PasswordReset> resetPassword(Principal by, String accountId) {
    if (!selfService.mailConfigured() && !by.operator())
      return CompletableFuture.failedFuture(new SelfService.MailNotConfigured());
    return account(accountId)
        .thenCompose(
            account ->
                selfService.mailConfigured()
                    ? selfService
                        .mailPasswordReset(account)
                        .exceptionally(
                            Refusal.as(
                                Refusal.Kind.CONFLICT,
                                "the address had a mail within the last minute, or its ten of the"
                                    + " day; try again later"))
                        .thenCompose(sent -> recorded(by, "reset-password", accountId, "mailed"))
                        .thenApply(done -> new PasswordReset(account.view(), null))
                    : selfService
                        .issuePasswordReset(account)
                        .thenCompose(
                            issued ->
                                recorded(by, "reset-password", accountId, "one-time password")
                                    .thenApply(done -> new PasswordReset(account.view(), issued))));
  }

  /** Creates a verified account, as an administrator or the operator asked. */
  public CompletionStage<Account> create(Principal by, Accounts.NewAccount request) {
    return accounts
        .create(request)
        .thenCompose(
            account ->
                recorded(by, "create", account.id(), account.role().wire())
                    .thenApply(done -> account));
  }

  /**
   * Mails {@code address} an invitation to register, whatever the sign-up rule (SMTP needed: 503
   * without); 409 while an account holds the address.
   */
  public CompletionStage<Done> invite(Principal by, String address) {
    String normalized = EmailEntity.normalize(Accounts.validEmail(address, "email"));
    return selfService
        .invite(normalized)
        .thenCompose(sent -> recorded(by, "invite", normalized, null));
  }

  /**
   * Deletes the account: its sign-ins and tokens end, its address is free again, its watches, trust
   * rules and other data are removed. Its run history (the deleted watches' journals and the
   * feedback on their runs) is kept unless {@code eraseHistory}. The account's id stays taken.
   */
  public CompletionStage<Account.View> delete(
      Principal by, String accountId, boolean eraseHistory) {
    return guarded(
        accountId,
        () ->
            asks.<AccountEntity.Command, Account>ask(
                    accountRefs.account(accountId),
                    reply -> new AccountEntity.DeleteAccount(clock.instant(), reply))
                .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND, "no such account"))
                .thenCompose(
                    account -> {
                      access.forget(accountId);
                      return emails
                          .release(account.email(), accountId)
                          .thenCompose(released -> removeData(by, accountId, eraseHistory))
                          .thenCompose(
                              removed ->
                                  recorded(
                                      by,
                                      "delete",
                                      accountId,
                                      eraseHistory ? "run history erased" : "run history kept"))
                          .thenApply(done -> account.view());
                    }));
  }

  private CompletionStage<Done> removeData(Principal by, String accountId, boolean eraseHistory) {
    Actor actor = by.operator() ? Actor.cli() : Actor.admin(by.accountId());
    return asks.<AccountEntity.Command, AccountEntity.WatchIds>ask(
            accountRefs.account(accountId), AccountEntity.ListWatches::new)
        .thenCompose(
            ids ->
                AccountDataEraser.removeEach(
                        ids.ids(),
                        id ->
                            asks.<WatchEntity.Command, Done>ask(
                                watches.watch(accountId, id),
                                r -> new WatchEntity.Delete(actor, r)))
                    .thenCompose(d -> removeTrustRules(accountId))
                    .thenCompose(d -> eraseData(accountId, ids.ids(), eraseHistory))
                    .thenCompose(
                        d ->
                            eraseHistory
                                ? erasure.erase(
                                    WatchEntity.TYPE_KEY.name(),
                                    ids.ids().stream()
                                        .map(id -> WatchEntity.entityId(accountId, id))
                                        .toList())
                                : CompletableFuture.completedFuture(Done.done())));
  }

  private CompletionStage<Done> removeTrustRules(String accountId) {
    return asks.<TrustRulesEntity.Command, TrustRulesEntity.Rules>ask(
            trustRules.trustRules(accountId), TrustRulesEntity.GetRules::new)
        .thenCompose(
            rules ->
                AccountDataEraser.removeEach(
                    rules.rules().stream().map(TrustRule::pattern).toList(),
                    pattern ->
                        asks.<TrustRulesEntity.Command, Done>ask(
                            trustRules.trustRules(accountId),
                            reply -> new TrustRulesEntity.Remove(pattern, reply))));
  }

  /** What the other packages keep about the account, one eraser after the other. */
  private CompletionStage<Done> eraseData(
      String accountId, List<String> watchIds, boolean eraseHistory) {
    CompletionStage<Done> done = CompletableFuture.completedFuture(Done.done());
    for (AccountDataEraser eraser : erasers)
      done = done.thenCompose(d -> eraser.erase(accountId, watchIds, eraseHistory));
    return done;
  }

  // ---- the audit log --------------------------------------------------------------------------

  public CompletionStage<List<AuditLogEntity.Entry>> auditLog(int limit) {
    if (limit < 1 || limit > AuditLogEntity.KEPT)
      throw new ValidationException(
          List.of(Issue.at("must be 1 to " + AuditLogEntity.KEPT, "limit")));
    return asks.<AuditLogEntity.Command, AuditLogEntity.Entries>ask(
            audit.auditLog(), reply -> new AuditLogEntity.Read(limit, reply))
        .thenApply(AuditLogEntity.Entries::entries);
  }

  /** Writes one entry of the audit log (and the log line). */
  public CompletionStage<Done> recorded(Principal by, String action, String target, String detail) {
    log.info(
        "event=admin-action action={} target={} by={}{}",
        action,
        target,
        by.accountId(),
        detail == null ? "" : " detail=\"" + detail + "\"");
    return asks.<AuditLogEntity.Command, Done>ask(
        audit.auditLog(),
        reply ->
            new AuditLogEntity.Record(
                new AuditLogEntity.Entry(clock.instant(), by.accountId(), action, target, detail),
                reply));
  }

  // ---- helpers --------------------------------------------------------------------------------

  private CompletionStage<Account> account(String accountId) {
    return asks.<AccountEntity.Command, Account>ask(
            accountRefs.account(accountId), AccountEntity.GetAccount::new)
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND, "no such account"));
  }

  private CompletionStage<Account.View> change(
      String accountId,
      java.util.function.Function<
              org.apache.pekko.actor.typed.ActorRef<org.apache.pekko.pattern.StatusReply<Account>>,
              AccountEntity.Command>
          command,
      Principal by,
      String action,
      String detail) {
    return asks.<AccountEntity.Command, Account>ask(accountRefs.account(accountId), command::apply)
        .exceptionally(Refusal.as(Refusal.Kind.NOT_FOUND, "no such account"))
        .thenCompose(
            account -> {
              access.forget(accountId);
              return recorded(by, action, accountId, detail).thenApply(done -> account.view());
            });
  }

  /**
   * Runs {@code change} unless it would leave no enabled administrator: refused with {@link
   * LastAdmin} when the account is one and no other enabled one exists. Such changes take turns
   * cluster-wide ({@link AdminTurnsEntity}), so two of them never both count on the other's admin.
   */
  private <T> CompletionStage<T> guarded(String accountId, Supplier<CompletionStage<T>> change) {
    return asks.<AdminTurnsEntity.Command, String>ask(
            adminTurns.adminTurns(), AdminTurnsEntity.Take::new)
        .thenCompose(
            turn ->
                accounts
                    .list()
                    .thenCompose(
                        all -> {
                          boolean isLiveAdmin =
                              all.stream().anyMatch(a -> a.id().equals(accountId) && liveAdmin(a));
                          boolean anotherStays =
                              all.stream().anyMatch(a -> !a.id().equals(accountId) && liveAdmin(a));
                          if (isLiveAdmin && !anotherStays) throw new LastAdmin();
                          return change.get();
                        })
                    .whenComplete(
                        (changed, failure) ->
                            adminTurns.adminTurns().tell(new AdminTurnsEntity.GiveBack(turn))));
  }

  private static boolean liveAdmin(Account.View account) {
    return account.role().equals(Role.ADMIN.wire()) && !account.disabled();
  }
}
