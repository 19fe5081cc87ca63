package io.periscope.http;

import io.periscope.json.Issue;
import io.periscope.json.Json;
import java.util.List;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;

/** Every response body the service writes is JSON; errors are {@code {error, issues?}}. */
public final class HttpResponses {
  private HttpResponses() {}

  /**
   * The body of every error response. {@code issues} is null (and so absent) except for validation
   * failures.
   */
  public record ErrorBody(String error, List<Issue> issues) {}

  public static HttpResponse json(StatusCode status, Object body) {
    return HttpResponse.create()
        .withStatus(status)
        .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, Json.bytes(body)));
  }

  public static HttpResponse ok(Object body) {
    return json(StatusCodes.OK, body);
  }

  public static HttpResponse error(StatusCode status, String message) {
    return json(status, new ErrorBody(message, null));
  }

  public static HttpResponse invalid(List<Issue> issues) {
    return json(StatusCodes.BAD_REQUEST, new ErrorBody("the request is invalid", issues));
  }
}
