package io.periscope.http;

import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import io.periscope.account.AccountEntity;
import io.periscope.account.AccountWatches;
import io.periscope.entity.Asks;
import io.periscope.run.CollectionStats;
import io.periscope.runtime.Entities;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WatchEntity;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * GET /collection/stats: the caller's recent runs, aggregated (the window is {@link
 * CollectionStats}'s).
 */
public final class CollectionRoutes implements Routes {
  private final Entities entities;
  private final AccountWatches accountWatches;
  private final Asks asks;
  private final Clock clock;

  public CollectionRoutes(Entities entities, Asks asks, Clock clock) {
    this.entities = entities;
    this.accountWatches = new AccountWatches(entities::account, entities::watch, asks);
    this.asks = asks;
    this.clock = clock;
  }

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(GET, "/collection/stats", (caller, p) -> answer(stats(caller.accountId()))));
  }

  private CompletionStage<Reply> stats(String accountId) {
    return asks.<AccountEntity.Command, AccountEntity.WatchIds>ask(
            entities.account(accountId), AccountEntity.ListWatches::new)
        .thenCompose(
            ids -> {
              List<CompletableFuture<List<RunRecord>>> histories =
                  ids.ids().stream()
                      .map(
                          id ->
                              asks.<WatchEntity.Command, WatchEntity.Runs>ask(
                                      entities.watch(accountId, id),
                                      r ->
                                          new WatchEntity.GetRuns(
                                              CollectionStats.RUNS_PER_WATCH, r))
                                  .thenApply(WatchEntity.Runs::runs)
                                  .exceptionally(
                                      e -> {
                                        accountWatches.<Void>gone(accountId, id, e);
                                        return List.of();
                                      })
                                  .toCompletableFuture())
                      .toList();
              return CompletableFuture.allOf(histories.toArray(CompletableFuture[]::new))
                  .thenApply(
                      all ->
                          ok(
                              CollectionStats.of(
                                  histories.stream().flatMap(h -> h.join().stream()).toList(),
                                  clock.instant())));
            });
  }
}
