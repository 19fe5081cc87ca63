package io.periscope.http;

import static io.periscope.http.ApiDirectives.adminOnly;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.HttpResponses.json;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;
import io.periscope.auth.Accounts;
import io.periscope.auth.Principal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.util.List;

/** /admin/*: administrators only (403 for users). Accounts are created here by admins and by the command line. */
public final class AdminRoutes {
  private static final long MAX_BODY = 16 * 1024;
  private final Accounts accounts;

  public AdminRoutes(Accounts accounts) {
    this.accounts = accounts;
  }

  public Route route(Principal caller) {
    return pathPrefix("admin", () -> adminOnly(caller, () ->
        path("users", () -> post(() -> jsonBody(MAX_BODY, this::createUser)))));
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
