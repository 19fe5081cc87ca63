package io.periscope.http;

import static io.periscope.http.ApiDirectives.clientAddress;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.http.HttpResponses.error;
import static io.periscope.http.HttpResponses.ok;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;
import io.periscope.auth.Accounts;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.util.ArrayList;
import java.util.List;

/** Public /auth/* routes, all behind one fixed window per client address. */
public final class AuthRoutes {
  private static final long MAX_BODY = 16 * 1024;
  private final Accounts accounts;
  private final FixedWindowRateLimiter limiter;

  public AuthRoutes(Accounts accounts, FixedWindowRateLimiter limiter) {
    this.accounts = accounts;
    this.limiter = limiter;
  }

  public Route route() {
    return pathPrefix("auth", () -> extractRequest(request -> rateLimited(limiter, clientAddress(request), () ->
        path("login", () -> post(() -> jsonBody(MAX_BODY, this::login))))));
  }

  private Route login(JsonNode body) {
    Credentials credentials = Credentials.of(body);
    return onSuccess(accounts.login(credentials.email(), credentials.password()), session -> session
        .map(s -> complete(ok(s)))
        .orElseGet(() -> complete(error(StatusCodes.UNAUTHORIZED, "wrong e-mail or password"))));
  }

  /** The login body: two non-empty strings. */
  record Credentials(String email, String password) {
    static Credentials of(JsonNode body) {
      if (!body.isObject()) throw new ValidationException(List.of(Issue.at("the body must be {email, password}")));
      List<Issue> issues = new ArrayList<>();
      String email = text(body, "email", issues);
      String password = text(body, "password", issues);
      if (!issues.isEmpty()) throw new ValidationException(issues);
      return new Credentials(email, password);
    }

    private static String text(JsonNode body, String field, List<Issue> issues) {
      JsonNode node = body.get(field);
      if (node == null || !node.isTextual() || node.asText().isEmpty()) {
        issues.add(Issue.at("must be a non-empty string", field));
        return null;
      }
      return node.asText();
    }
  }
}
