package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.Reply.error;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.periscope.entity.Failures;
import io.periscope.entity.OverQuota;
import io.periscope.entity.Refusal;
import io.periscope.http.connection.SlowRequestBody;
import io.periscope.json.ValidationException;
import java.time.Instant;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.pekko.http.cors.javadsl.CorsRejection;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.ExceptionHandler;
import org.apache.pekko.http.javadsl.server.MalformedQueryParamRejection;
import org.apache.pekko.http.javadsl.server.MethodRejection;
import org.apache.pekko.http.javadsl.server.MissingQueryParamRejection;
import org.apache.pekko.http.javadsl.server.Rejection;
import org.apache.pekko.http.javadsl.server.RejectionHandler;
import org.apache.pekko.http.javadsl.server.UnsupportedRequestContentTypeRejection;
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException;
import org.apache.pekko.http.scaladsl.model.IllegalRequestException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place failures become responses: every rejection and every exception is JSON {@code
 * {error}} with the right status, so nothing reaches the client as Pekko's plain-text defaults or
 * an unhandled 500.
 */
public final class ErrorHandling {
  private static final Logger log = LoggerFactory.getLogger(ErrorHandling.class);

  /**
   * The error of a path no route has (an authenticated one: without a token it is a 401). Routes
   * that find no entity say what they did not find ("watch not found"), so a client, and the
   * OpenAPI test, can tell the two apart.
   */
  public static final String NO_SUCH_ROUTE = "no such route";

  private ErrorHandling() {}

  public static RejectionHandler rejections() {
    return RejectionHandler.newBuilder()
        .handle(
            CorsRejection.class,
            r -> answer(error(StatusCodes.FORBIDDEN, "cross-origin request not allowed")))
        .handleAll(MethodRejection.class, ErrorHandling::methodNotAllowed)
        .handle(
            MissingQueryParamRejection.class,
            r ->
                answer(
                    error(
                        StatusCodes.BAD_REQUEST,
                        "query parameter '" + r.parameterName() + "' is required")))
        .handle(
            MalformedQueryParamRejection.class,
            r ->
                answer(
                    error(
                        StatusCodes.BAD_REQUEST,
                        "query parameter '" + r.parameterName() + "' is malformed")))
        .handle(
            UnsupportedRequestContentTypeRejection.class,
            r ->
                answer(
                    error(StatusCodes.UNSUPPORTED_MEDIA_TYPE, "the body must be application/json")))
        .handle(
            Rejection.class,
            r -> answer(error(StatusCodes.BAD_REQUEST, "the request was rejected")))
        .handleNotFound(answer(error(StatusCodes.NOT_FOUND, NO_SUCH_ROUTE)))
        .build();
  }

  /**
   * Only a wrong method: a public path asked with the wrong method is a 405, while every other
   * request passes on to the token check (so unknown paths answer 401 without a token).
   */
  public static RejectionHandler methodRejections() {
    return RejectionHandler.newBuilder()
        .handleAll(MethodRejection.class, ErrorHandling::methodNotAllowed)
        .build();
  }

  private static org.apache.pekko.http.javadsl.server.Route methodNotAllowed(
      java.util.List<MethodRejection> rs) {
    return answer(
        error(
            StatusCodes.METHOD_NOT_ALLOWED,
            "method not allowed; use "
                + rs.stream()
                    .map(r -> r.supported().name())
                    .distinct()
                    .collect(Collectors.joining(", "))));
  }

  public static ExceptionHandler exceptions() {
    return ExceptionHandler.newBuilder().matchAny(t -> answer(toReply(t))).build();
  }

  static Reply toReply(Throwable thrown) {
    Throwable t = Failures.unwrap(thrown);
    if (t instanceof ValidationException v) return Reply.invalid(v.issues());
    if (t instanceof StreamConstraintsException) {
      return error(StatusCodes.BAD_REQUEST, "the JSON body is nested too deeply");
    }
    if (t instanceof JsonProcessingException)
      return error(StatusCodes.BAD_REQUEST, "the body is not valid JSON");
    if (t instanceof EntityStreamSizeException
        || (t instanceof IllegalRequestException r && reportsTooLarge(r))) {
      return tooLarge();
    }
    if (t instanceof IllegalRequestException r) {
      return error(StatusCodes.get(r.status().intValue()), "the request is malformed");
    }
    if (t instanceof SlowRequestBody slow)
      return error(StatusCodes.REQUEST_TIMEOUT, slow.getMessage());
    if (t instanceof OverQuota q)
      return Reply.json(
          statusOf(q.kind()), new QuotaError(q.getMessage(), q.quota(), q.limit(), q.resetsAt()));
    if (t instanceof Refusal r) return error(statusOf(r.kind()), r.getMessage());
    if (t instanceof TimeoutException
        || t instanceof org.apache.pekko.pattern.AskTimeoutException) {
      log.warn("event=entity-timeout message=\"{}\"", t.getMessage());
      return error(StatusCodes.SERVICE_UNAVAILABLE, "the service is busy; try again shortly");
    }
    log.error("event=unhandled-error type={}", t.getClass().getName(), t);
    return error(StatusCodes.INTERNAL_SERVER_ERROR, "internal error");
  }

  /** The one mapping of the refusal vocabulary to HTTP. */
  static StatusCode statusOf(Refusal.Kind kind) {
    return switch (kind) {
      case NOT_FOUND -> StatusCodes.NOT_FOUND;
      case CONFLICT -> StatusCodes.CONFLICT;
      case FORBIDDEN -> StatusCodes.FORBIDDEN;
      case UNPROCESSABLE -> StatusCodes.UNPROCESSABLE_ENTITY;
      case UNAVAILABLE -> StatusCodes.SERVICE_UNAVAILABLE;
      case UPSTREAM_FAILED -> StatusCodes.BAD_GATEWAY;
      case USED_UP -> StatusCodes.TOO_MANY_REQUESTS;
    };
  }

  /**
   * The body of a refusal at a quota: the error, the quota's name, its limit and, for a monthly
   * budget, when it resets.
   */
  public record QuotaError(
      String error,
      String quota,
      Number limit,
      @JsonInclude(JsonInclude.Include.NON_NULL) Instant resetsAt) {}

  static Reply tooLarge() {
    return error(StatusCodes.PAYLOAD_TOO_LARGE, "the request body is too large");
  }

  /**
   * Pekko reports an oversized strict body as a 400 or a 413 depending on how it arrived; both are
   * a 413 here.
   */
  private static boolean reportsTooLarge(IllegalRequestException e) {
    return e.status().intValue() == 413 || e.info().summary().startsWith("Request too large");
  }
}
