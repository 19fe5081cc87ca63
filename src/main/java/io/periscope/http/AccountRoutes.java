package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.account.ApiToken;
import io.periscope.account.OwnAccount;
import io.periscope.auth.TokenScope;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.pekko.http.javadsl.model.StatusCodes;

/**
 * The caller's own account: signing out ({@code POST /auth/logout}, which needs the token it ends,
 * so it sits behind the bearer token unlike the rest of /auth), the account, changing its password
 * and its personal API tokens.
 */
public final class AccountRoutes implements Routes {
  /** The one /auth path that needs a token: the public /auth routes let it pass to this group. */
  static final String LOGOUT = "/auth/logout";

  private final OwnAccount own;
  private final long maxBody;

  public AccountRoutes(OwnAccount own, long maxBody) {
    this.own = own;
    this.maxBody = maxBody;
  }

  /** The body of GET /account/tokens, oldest first. */
  public record TokenList(List<ApiToken.View> tokens) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            POST,
            LOGOUT,
            (caller, p) -> onSuccess(own.signOut(caller), done -> answer(noContent()))),
        new Endpoint(
            GET, "/account", (caller, p) -> onSuccess(own.account(caller), a -> answer(ok(a)))),
        new Endpoint(
            PUT,
            "/account/password",
            (caller, p) ->
                jsonBody(
                    maxBody,
                    body -> {
                      AuthRoutes.Fields f =
                          AuthRoutes.Fields.of(body, "currentPassword", "newPassword");
                      return onSuccess(
                          own.changePassword(
                              caller, f.text("currentPassword"), f.text("newPassword")),
                          session -> answer(ok(session)));
                    })),
        new Endpoint(
            GET,
            "/account/tokens",
            (caller, p) ->
                onSuccess(own.tokens(caller), tokens -> answer(ok(new TokenList(tokens))))),
        new Endpoint(
            POST,
            "/account/tokens",
            (caller, p) ->
                jsonBody(
                    maxBody,
                    body ->
                        onSuccess(
                            own.createToken(caller, name(body), expiresAt(body), scopes(body)),
                            made -> answer(json(StatusCodes.CREATED, made))))),
        new Endpoint(
            DELETE,
            "/account/tokens/{id}",
            (caller, p) ->
                onSuccess(own.revokeToken(caller, p.get("id")), done -> answer(noContent()))));
  }

  static Reply noContent() {
    return Reply.noContent();
  }

  private static String name(JsonNode body) {
    if (!body.isObject())
      throw new ValidationException(
          List.of(Issue.at("the body must be {name, expiresAt?, scopes?}")));
    JsonNode name = body.get("name");
    return name != null && name.isTextual() ? name.asText() : null;
  }

  /** The scopes named, or null when the body names none. */
  private static Set<TokenScope> scopes(JsonNode body) {
    JsonNode scopes = body.get("scopes");
    if (scopes == null || scopes.isNull()) return null;
    if (!scopes.isArray())
      throw new ValidationException(
          List.of(Issue.at("must be an array of 'read', 'watches', 'admin'", "scopes")));
    Set<TokenScope> named = EnumSet.noneOf(TokenScope.class);
    List<Issue> issues = new ArrayList<>();
    for (int i = 0; i < scopes.size(); i++) {
      Optional<TokenScope> scope = TokenScope.parse(scopes.get(i).asText(""));
      if (scope.isPresent() && scopes.get(i).isTextual()) named.add(scope.get());
      else issues.add(Issue.at("must be 'read', 'watches' or 'admin'", "scopes", i));
    }
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return named;
  }

  private static Instant expiresAt(JsonNode body) {
    JsonNode at = body.get("expiresAt");
    if (at == null || at.isNull()) return null;
    try {
      if (at.isTextual()) return Instant.parse(at.asText());
    } catch (DateTimeParseException e) {
      // reported below
    }
    throw new ValidationException(
        List.of(Issue.at("must be a date-time such as 2030-01-01T00:00:00Z", "expiresAt")));
  }
}
