package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.Reply.ok;
import static io.periscope.http.WatchRoutes.watch;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;

import io.periscope.auth.Role;
import io.periscope.channels.SealedChannels;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.watch.Actor;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchVersion;
import io.periscope.watch.WatchVersions;
import io.periscope.watches.Watches;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The history of a watch's definition: {@code /watches/:id/versions} lists its kept versions,
 * newest first, {@code /watches/:id/versions/:n} answers one with its differences from the version
 * before, and {@code POST .../restore} makes one current again. Versions outlive the watch's delete
 * (a deleted watch's versions are listed, and restoring one creates it again); scoped like watches:
 * another owner's watch is not found.
 */
public final class VersionRoutes implements Routes {
  private final Watches watches;
  private final SealedChannels sealed;

  public VersionRoutes(Watches watches, SealedChannels sealed) {
    this.watches = watches;
    this.sealed = sealed;
  }

  /** One version as lists show it. */
  public record VersionSummary(
      int version,
      Instant at,
      Actor actor,
      String change,
      List<String> changed,
      Integer restoredFrom) {
    static VersionSummary of(WatchVersion v) {
      return new VersionSummary(
          v.version(), v.at(), v.actor(), v.change(), v.changed(), v.restoredFrom());
    }
  }

  /** The body of GET /watches/:id/versions. */
  public record VersionList(List<VersionSummary> versions) {}

  /**
   * The body of GET /watches/:id/versions/:n: the version, its definition (channels masked; null
   * for a delete) and each field that differs from the version before ({@code before} null where
   * that version is not kept or held no definition).
   */
  public record VersionBody(
      int version,
      Instant at,
      Actor actor,
      String change,
      List<String> changed,
      Integer restoredFrom,
      Watch watch,
      List<WatchVersions.Difference> differences) {}

  private static final String ONE = "/watches/{id}/versions/{n}";

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/watches/{id}/versions",
            watch((accountId, id, p) -> answer(list(accountId, id)))),
        new Endpoint(
            GET,
            ONE,
            watch((accountId, id, p) -> answer(number(p.get("n"), n -> read(accountId, id, n))))),
        new Endpoint(
            POST,
            ONE + "/restore",
            (caller, p) ->
                watch(
                        (accountId, id, q) ->
                            answer(
                                number(q.get("n"), n -> restore(caller.role(), accountId, id, n))))
                    .apply(caller, p)));
  }

  /** A version number from the path: a whole number from 1, else 400 before anything is read. */
  private static CompletionStage<Reply> number(
      String text, Function<Integer, CompletionStage<Reply>> then) {
    int n;
    try {
      n = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n < 1)
      return CompletableFuture.completedFuture(
          Reply.invalid(List.of(Issue.at("must be a version number, 1 or more", "path", "n"))));
    return then.apply(n);
  }

  private CompletionStage<Reply> list(String accountId, String id) {
    return watches
        .versions(accountId, id)
        .thenApply(
            kept -> {
              List<VersionSummary> newestFirst = new ArrayList<>();
              for (int i = kept.size() - 1; i >= 0; i--)
                newestFirst.add(VersionSummary.of(kept.get(i)));
              return ok(new VersionList(newestFirst));
            });
  }

  private CompletionStage<Reply> read(String accountId, String id, int n) {
    return watches
        .versions(accountId, id)
        .thenApply(
            kept -> {
              WatchVersion v = WatchVersions.find(kept, n).orElseThrow(VersionRoutes::noVersion);
              Watch shown = v.watch() == null ? null : SealedChannels.mask(v.watch());
              Watch before =
                  WatchVersions.before(kept, n)
                      .map(WatchVersion::watch)
                      .map(SealedChannels::mask)
                      .orElse(null);
              List<WatchVersions.Difference> differences =
                  WatchVersions.differences(before, shown).stream()
                      .filter(d -> v.changed().contains(d.field()))
                      .toList();
              return ok(
                  new VersionBody(
                      v.version(),
                      v.at(),
                      v.actor(),
                      v.change(),
                      v.changed(),
                      v.restoredFrom(),
                      shown,
                      differences));
            });
  }

  private CompletionStage<Reply> restore(Role role, String accountId, String id, int n) {
    return watches
        .restore(role, accountId, id, n, Actor.owner(accountId), this::opened)
        .thenApply(restored -> ok(SealedChannels.mask(restored)));
  }

  /** A stored definition with its channels as the owner named them, for the checks of a write. */
  private Watch opened(Watch stored) {
    return stored.withChannels(stored.channels().stream().map(sealed::open).toList());
  }

  private static Refusal noVersion() {
    return new Refusal(NOT_FOUND, "version not found");
  }
}
