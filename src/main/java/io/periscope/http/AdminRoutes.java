package io.periscope.http;

import static io.periscope.http.ApiDirectives.adminOnly;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.account.Account;
import io.periscope.account.AccountAdmin;
import io.periscope.account.Accounts;
import io.periscope.auth.AuditLogEntity;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.keys.KeyPoolAdmin;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.keys.Reencryption;
import io.periscope.llm.ModelChoice;
import io.periscope.llm.ModelConfigs;
import io.periscope.llm.ModelConfiguration;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * /admin/*: administrators only (403 for users). Accounts are created here by admins and by the
 * command line; the key pools are managed here (keys addressed by pool and id, never by their
 * material), and the models asked for verdicts and for assistance are configured here. Routes that
 * probe a key share one window of {@code key-probes-per-minute} (10) for the whole node.
 */
public final class AdminRoutes implements Routes {
  private static final Logger log = LoggerFactory.getLogger(AdminRoutes.class);
  private static final long MAX_BODY = 16 * 1024;

  /**
   * The one rate-limit key every probing route counts against: the limit is overall, not per admin.
   */
  static final String PROBE_WINDOW = "key-probes";

  /** A probe may take {@link KeyPoolAdmin#PROBE_DEADLINE}, beside the pool's own answers. */
  static final Duration PROBING_REQUEST_TIMEOUT = KeyPoolAdmin.PROBE_DEADLINE.plusSeconds(30);

  private final AccountAdmin admin;
  private final KeyPools keyPools;
  private final KeyPoolAdmin keyAdmin;
  private final ModelConfigs models;
  private final FixedWindowRateLimiter probeLimiter;
  private final Supplier<CompletionStage<Reencryption.Result>> reencrypt;

  /**
   * @param reencrypt seals every stored key under the newest key of ENCRYPTION_KEY
   */
  public AdminRoutes(
      AccountAdmin admin,
      KeyPools keyPools,
      KeyPoolAdmin keyAdmin,
      ModelConfigs models,
      FixedWindowRateLimiter probeLimiter,
      Supplier<CompletionStage<Reencryption.Result>> reencrypt) {
    this.admin = admin;
    this.keyPools = keyPools;
    this.keyAdmin = keyAdmin;
    this.models = models;
    this.probeLimiter = probeLimiter;
    this.reencrypt = reencrypt;
  }

  /**
   * One key as the admin routes show it: its pool, id, a masked label, live status and today's
   * metered use. Never its material.
   */
  public record KeyRow(
      String pool,
      String id,
      String label,
      String status,
      long usedToday,
      Long dailyLimit,
      Instant cooldownUntil,
      String lastProblem) {
    static KeyRow of(String pool, KeyPoolEntity.KeyView k) {
      return new KeyRow(
          pool,
          k.id(),
          k.label(),
          k.status(),
          k.usedToday(),
          k.dailyLimit(),
          k.cooldownUntil(),
          k.lastProblem());
    }
  }

  public record KeyList(List<KeyRow> keys) {}

  /** The body of GET /admin/users. */
  public record UserList(List<Account.View> users) {}

  /**
   * The body of GET and PUT /admin/model: the models in force, {@code source} {@code environment}
   * (MODEL_*) or {@code admin}, and who changed it when (absent while it is the environment's).
   */
  public record ModelView(
      ModelChoice verdicts,
      ModelChoice assistance,
      String source,
      Instant changedAt,
      String changedBy) {
    static ModelView of(ModelConfigs.InForce m) {
      return new ModelView(
          m.configuration().verdicts(),
          m.configuration().assistance(),
          m.fromEnvironment() ? "environment" : "admin",
          m.changedAt(),
          m.changedBy());
    }
  }

  /** Every path under /admin, unknown ones included, is for administrators only. */
  @Override
  public Route around(Principal caller, Supplier<Route> endpoints) {
    return pathPrefixTest("admin", () -> adminOnly(caller, endpoints));
  }

  @Override
  public List<Endpoint> endpoints() {
    // a pool other than model and search is no route of these (404)
    Map<String, Predicate<String>> pools = Map.of("pool", KeyPoolAdmin.POOLS::contains);
    return List.of(
        new Endpoint(
            GET,
            "/admin/users",
            (caller, p) ->
                parameterOptional(
                    "role",
                    role ->
                        parameterOptional(
                            "status",
                            status ->
                                parameterOptional(
                                    "q",
                                    q ->
                                        onSuccess(
                                            admin.list(
                                                AccountAdmin.Filter.of(
                                                    role.orElse(null),
                                                    status.orElse(null),
                                                    q.orElse(null))),
                                            users -> answer(ok(new UserList(users)))))))),
        new Endpoint(
            POST,
            "/admin/users",
            (caller, p) -> jsonBody(MAX_BODY, body -> createUser(caller, body))),
        new Endpoint(
            POST,
            "/admin/users/{id}/disable",
            (caller, p) -> user(admin.disable(caller, p.get("id")))),
        new Endpoint(
            POST,
            "/admin/users/{id}/enable",
            (caller, p) -> user(admin.enable(caller, p.get("id")))),
        new Endpoint(
            PUT,
            "/admin/users/{id}/role",
            (caller, p) ->
                jsonBody(MAX_BODY, body -> user(admin.setRole(caller, p.get("id"), roleOf(body))))),
        new Endpoint(
            POST,
            "/admin/users/{id}/reset-password",
            (caller, p) ->
                onSuccess(
                    admin.resetPassword(caller, p.get("id")),
                    reset -> answer(passwordReset(reset)))),
        new Endpoint(
            DELETE,
            "/admin/users/{id}",
            (caller, p) ->
                parameterOptional(
                    "runHistory",
                    history ->
                        onSuccess(
                            admin.delete(caller, p.get("id"), eraseHistory(history)),
                            user -> answer(AccountRoutes.noContent())))),
        new Endpoint(
            POST,
            "/admin/invitations",
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body -> {
                      String email = body.isObject() ? text(body, "email") : null;
                      return onSuccess(
                          admin.invite(caller, email),
                          done ->
                              answer(
                                  json(
                                      StatusCodes.ACCEPTED, new Invited("invited", email.trim()))));
                    })),
        new Endpoint(
            GET,
            "/admin/audit",
            (caller, p) ->
                parameterOptional(
                    "limit",
                    limit ->
                        onSuccess(
                            admin.auditLog(limitOf(limit)),
                            entries -> answer(ok(new AuditLog(entries)))))),
        new Endpoint(GET, "/admin/keys", (caller, p) -> answer(keys())),
        new Endpoint(
            POST,
            "/admin/keys/{pool}",
            pools,
            (caller, p) ->
                probing(
                    () ->
                        jsonBody(
                            MAX_BODY,
                            body ->
                                answer(addKey(caller, p.get("pool"), KeyPoolAdmin.keyOf(body)))))),
        new Endpoint(
            GET,
            "/admin/keys/{pool}/{id}",
            pools,
            (caller, p) ->
                answer(
                    keyAdmin
                        .key(p.get("pool"), p.get("id"))
                        .thenApply(k -> ok(KeyRow.of(p.get("pool"), k))))),
        new Endpoint(
            DELETE,
            "/admin/keys/{pool}/{id}",
            pools,
            (caller, p) -> answer(removeKey(caller, p.get("pool"), p.get("id")))),
        new Endpoint(
            PUT,
            "/admin/keys/{pool}/{id}/daily-limit",
            pools,
            (caller, p) ->
                jsonBody(
                    MAX_BODY,
                    body ->
                        answer(
                            setDailyLimit(
                                caller,
                                p.get("pool"),
                                p.get("id"),
                                KeyPoolAdmin.dailyLimitOf(body))))),
        new Endpoint(
            POST,
            "/admin/keys/{pool}/{id}/probe",
            pools,
            (caller, p) -> probing(() -> answer(reprobe(caller, p.get("pool"), p.get("id"))))),
        new Endpoint(
            GET,
            "/admin/model",
            (caller, p) -> answer(models.current().thenApply(m -> ok(ModelView.of(m))))),
        new Endpoint(
            PUT,
            "/admin/model",
            (caller, p) -> jsonBody(MAX_BODY, body -> answer(changeModel(caller, body)))),
        new Endpoint(DELETE, "/admin/model", (caller, p) -> answer(resetModel(caller))),
        new Endpoint(
            POST,
            "/admin/encryption/re-encrypt",
            (caller, p) ->
                answer(
                    reencrypt
                        .get()
                        .thenApply(
                            r -> {
                              log.info(
                                  "event=keys-reencrypted reencrypted={} current={}"
                                      + " undecryptable={} by={}",
                                  r.reencrypted(),
                                  r.current(),
                                  r.undecryptable(),
                                  caller.accountId());
                              return ok(r);
                            }))));
  }

  private CompletionStage<Reply> addKey(Principal caller, String pool, String key) {
    return keyAdmin
        .add(pool, key)
        .thenApply(
            k -> {
              log.info(
                  "event=key-added pool={} key={} status={} by={}",
                  pool,
                  k.id(),
                  k.status(),
                  caller.accountId());
              return json(StatusCodes.CREATED, KeyRow.of(pool, k));
            });
  }

  private CompletionStage<Reply> removeKey(Principal caller, String pool, String id) {
    return keyAdmin
        .remove(pool, id)
        .thenApply(
            done -> {
              log.info("event=key-removed pool={} key={} by={}", pool, id, caller.accountId());
              return Reply.noContent();
            });
  }

  private CompletionStage<Reply> setDailyLimit(
      Principal caller, String pool, String id, Long limit) {
    return keyAdmin
        .setDailyLimit(pool, id, limit)
        .thenApply(
            k -> {
              log.info(
                  "event=key-daily-limit pool={} key={} limit={} by={}",
                  pool,
                  id,
                  limit,
                  caller.accountId());
              return ok(KeyRow.of(pool, k));
            });
  }

  private CompletionStage<Reply> reprobe(Principal caller, String pool, String id) {
    return keyAdmin
        .reprobe(pool, id)
        .thenApply(
            k -> {
              log.info(
                  "event=key-probed pool={} key={} status={} by={}",
                  pool,
                  id,
                  k.status(),
                  caller.accountId());
              return ok(KeyRow.of(pool, k));
            });
  }

  private CompletionStage<Reply> resetModel(Principal caller) {
    return models
        .reset(caller.accountId())
        .thenApply(
            m -> {
              log.info("event=model-config-reset by={}", caller.accountId());
              return ok(ModelView.of(m));
            });
  }

  /** The shared window of the probing routes, then time for the probe. */
  private Route probing(Supplier<Route> inner) {
    return rateLimited(
        probeLimiter, PROBE_WINDOW, () -> withRequestTimeout(PROBING_REQUEST_TIMEOUT, inner));
  }

  private CompletionStage<Reply> keys() {
    return keyPools
        .status(KeyPoolEntity.MODEL)
        .thenCombine(
            keyPools.status(KeyPoolEntity.SEARCH),
            (model, search) ->
                ok(
                    new KeyList(
                        Stream.concat(
                                model.keys().stream().map(k -> KeyRow.of(KeyPoolEntity.MODEL, k)),
                                search.keys().stream().map(k -> KeyRow.of(KeyPoolEntity.SEARCH, k)))
                            .toList())));
  }

  private CompletionStage<Reply> changeModel(Principal caller, JsonNode body) {
    ModelConfiguration next = ModelConfiguration.parse(body);
    return models
        .change(next, caller.accountId())
        .thenApply(
            m -> {
              log.info(
                  "event=model-config-changed verdicts={}:{} assistance={}:{} by={}",
                  next.verdicts().provider(),
                  next.verdicts().model(),
                  next.assistance().provider(),
                  next.assistance().model(),
                  caller.accountId());
              return ok(ModelView.of(m));
            });
  }

  /**
   * The body of a password reset issued to the command line instead of mailed (no SMTP): the
   * one-time password, the web client's page that takes it, and until when it works.
   */
  public record ResetIssued(
      String status, Account.View user, String token, String link, Instant expiresAt) {}

  /** 202 for a mailed reset; 200 with the one-time password for one issued to the operator. */
  private static Reply passwordReset(AccountAdmin.PasswordReset reset) {
    if (reset.printed() == null)
      return json(
          StatusCodes.ACCEPTED, new AuthRoutes.AccountChanged("reset-mailed", reset.user()));
    return ok(
        new ResetIssued(
            "reset-issued",
            reset.user(),
            reset.printed().token(),
            reset.printed().link(),
            reset.printed().expiresAt()));
  }

  /** The body of POST /admin/invitations. */
  public record Invited(String status, String email) {}

  /** The body of GET /admin/audit, newest first. */
  public record AuditLog(List<AuditLogEntity.Entry> entries) {}

  private static Route user(CompletionStage<Account.View> change) {
    return onSuccess(change, user -> answer(ok(user)));
  }

  private static Role roleOf(JsonNode body) {
    String role = body.isObject() ? text(body, "role") : null;
    return Role.parse(role == null ? "" : role)
        .orElseThrow(
            () -> new ValidationException(List.of(Issue.at("must be 'user' or 'admin'", "role"))));
  }

  /** {@code keep} (the default) or {@code erase}. */
  private static boolean eraseHistory(java.util.Optional<String> history) {
    String h = history.orElse("keep");
    if (!h.equals("keep") && !h.equals("erase"))
      throw new ValidationException(List.of(Issue.at("must be 'keep' or 'erase'", "runHistory")));
    return h.equals("erase");
  }

  private static int limitOf(java.util.Optional<String> limit) {
    try {
      return limit.map(Integer::parseInt).orElse(100);
    } catch (NumberFormatException e) {
      throw new ValidationException(List.of(Issue.at("must be a whole number", "limit")));
    }
  }

  private Route createUser(Principal caller, JsonNode body) {
    if (!body.isObject()) {
      throw new ValidationException(
          List.of(Issue.at("the body must be {id, email, role, password}")));
    }
    Accounts.NewAccount request =
        Accounts.validate(
            text(body, "id"), text(body, "email"), text(body, "role"), text(body, "password"));
    return onSuccess(
        admin.create(caller, request),
        account -> answer(json(StatusCodes.CREATED, account.view())));
  }

  private static String text(JsonNode body, String field) {
    JsonNode node = body.get(field);
    return node != null && node.isTextual() ? node.asText() : null;
  }
}
