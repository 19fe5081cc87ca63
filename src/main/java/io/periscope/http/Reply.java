package io.periscope.http;

import io.periscope.json.Issue;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.Uri;
import org.apache.pekko.http.javadsl.model.headers.Location;

/**
 * An answer of the interface: a status, its headers and a body written as JSON ({@link
 * ApiDirectives#answer}), or none for a 204 or a redirect. Errors are {@code {error, issues?}}.
 */
public record Reply(StatusCode status, List<HttpHeader> headers, Object body) {

  /**
   * The body of every error answer. {@code issues} is null (and so absent) except for validation
   * failures.
   */
  public record ErrorBody(String error, List<Issue> issues) {}

  public static Reply json(StatusCode status, Object body) {
    return new Reply(status, List.of(), body);
  }

  public static Reply ok(Object body) {
    return json(StatusCodes.OK, body);
  }

  public static Reply error(StatusCode status, String message) {
    return json(status, new ErrorBody(message, null));
  }

  public static Reply invalid(List<Issue> issues) {
    return json(StatusCodes.BAD_REQUEST, new ErrorBody("the request is invalid", issues));
  }

  public static Reply noContent() {
    return new Reply(StatusCodes.NO_CONTENT, List.of(), null);
  }

  public static Reply redirect(Uri location) {
    return new Reply(StatusCodes.FOUND, List.of(Location.create(location)), null);
  }

  public Reply withHeader(HttpHeader header) {
    List<HttpHeader> more = new ArrayList<>(headers);
    more.add(header);
    return new Reply(status, List.copyOf(more), body);
  }
}
