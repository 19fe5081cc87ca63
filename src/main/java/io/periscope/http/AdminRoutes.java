package io.periscope.http;

import static io.periscope.http.ApiDirectives.adminOnly;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.HttpResponses.json;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;
import io.periscope.auth.Accounts;
import io.periscope.auth.Principal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * /admin/*: administrators only (403 for users). Accounts are created here by admins and by the command line;
 * the key pools' live status is read here.
 */
public final class AdminRoutes implements Routes {
  private static final long MAX_BODY = 16 * 1024;
  private final Accounts accounts;
  private final KeyPools keyPools;

  public AdminRoutes(Accounts accounts, KeyPools keyPools) {
    this.accounts = accounts;
    this.keyPools = keyPools;
  }

  /** One key as GET /admin/keys shows it: its pool, a masked label, live status and today's metered use. */
  public record KeyRow(String pool, String id, String label, String status, long usedToday, Long dailyLimit,
                       java.time.Instant cooldownUntil, String lastProblem) {}

  public record KeyList(List<KeyRow> keys) {}

  /** The body of GET /admin/users. */
  public record UserList(List<io.periscope.owner.Account.View> users) {}

  /** Every path under /admin, unknown ones included, is for administrators only. */
  @Override
  public Route around(Principal caller, Supplier<Route> endpoints) {
    return pathPrefixTest("admin", () -> adminOnly(caller, endpoints));
  }

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(GET, "/admin/users", (caller, p) ->
            onSuccess(accounts.list(), users -> complete(HttpResponses.ok(new UserList(users))))),
        new Endpoint(POST, "/admin/users", (caller, p) -> jsonBody(MAX_BODY, this::createUser)),
        new Endpoint(GET, "/admin/keys", (caller, p) -> completeWithFuture(keys())));
  }

  private CompletionStage<HttpResponse> keys() {
    return keyPools.status(KeyPoolEntity.MODEL).thenCombine(keyPools.status(KeyPoolEntity.SEARCH),
        (model, search) -> HttpResponses.ok(new KeyList(Stream.concat(
            rows(KeyPoolEntity.MODEL, model), rows(KeyPoolEntity.SEARCH, search)).toList())));
  }

  private static Stream<KeyRow> rows(String pool, KeyPoolEntity.PoolStatus status) {
    return status.keys().stream().map(k -> new KeyRow(pool, k.id(), k.label(), k.status(), k.usedToday(),
        k.dailyLimit(), k.cooldownUntil(), k.lastProblem()));
  }

  private Route createUser(JsonNode body) {
    if (!body.isObject()) {
      throw new ValidationException(List.of(Issue.at("the body must be {id, email, role, password}")));
    }
    Accounts.NewAccount request = Accounts.validate(text(body, "id"), text(body, "email"), text(body, "role"),
        text(body, "password"));
    return onSuccess(accounts.create(request), account -> complete(json(StatusCodes.CREATED, account.view())));
  }

  private static String text(JsonNode body, String field) {
    JsonNode node = body.get(field);
    return node != null && node.isTextual() ? node.asText() : null;
  }
}
