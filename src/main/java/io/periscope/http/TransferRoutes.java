package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.parameterOptional;

import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.transfer.Transfers;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GET /export}: the caller's watches, trust rules and e-mail channel addresses as one
 * document; {@code POST /import}: such a document into the caller's account, all its watches or
 * none (409 with a report per watch).
 */
public final class TransferRoutes implements Routes {
  private final Transfers transfers;
  private final long maxBody;

  public TransferRoutes(Transfers transfers, long maxBody) {
    this.transfers = transfers;
    this.maxBody = maxBody;
  }

  /** The body of a refused import: why, and each watch's problem. */
  public record RefusedBody(String error, Transfers.Report report) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/export",
            (caller, p) ->
                parameterOptional(
                    "credentials",
                    credentials ->
                        credentials.isPresent() && !credentials.get().equals("sealed")
                            ? answer(
                                CompletableFuture.completedFuture(
                                    Reply.invalid(
                                        List.of(
                                            Issue.at(
                                                "must be 'sealed' when given",
                                                "query",
                                                "credentials")))))
                            : answer(
                                transfers
                                    .export(caller.accountId(), credentials.isPresent())
                                    .thenApply(Reply::ok)))),
        new Endpoint(
            POST,
            "/import",
            (caller, p) ->
                jsonBody(
                    maxBody,
                    body ->
                        answer(
                            transfers
                                .importInto(
                                    caller.accountId(),
                                    caller.role(),
                                    Transfers.accountNode(body, caller.accountId(), true))
                                .thenApply(report -> ok(report))
                                .exceptionally(TransferRoutes::refused)))));
  }

  private static Reply refused(Throwable e) {
    if (Failures.unwrap(e) instanceof Transfers.Refused r)
      return Reply.json(
          ErrorHandling.statusOf(Refusal.Kind.CONFLICT),
          new RefusedBody(r.getMessage(), r.report()));
    return Failures.rethrow(e);
  }
}
