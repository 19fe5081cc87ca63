package io.periscope.http;

import static org.apache.pekko.http.javadsl.server.Directives.completeOK;

import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.ratelimit.HeldSlots;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.marshalling.sse.EventStreamMarshalling;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.model.sse.ServerSentEvent;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.javadsl.Source;

/**
 * A job (a run-all, a backtest) followed as server-sent events, within the streams {@code owner}
 * may hold open on this node (429 past them): the events of the first look, then of a look every
 * {@link #POLL} until the job finished (that look included), with a heartbeat comment while nothing
 * happens. Each look adds the events not sent yet: {@code eventsOf} is given the keys already sent,
 * and adds the ones it sends. A look that is not answered (the job's entity busy, or moving to
 * another node after its node died) is skipped, so the stream rides over a node's death; after
 * {@link #UNANSWERED_FOR} of them, or when the job is no longer found, the stream ends and the
 * client comes back with Last-Event-ID.
 */
final class JobEvents {
  /** How often a follower of a job looks at it. */
  static final Duration POLL = Duration.ofMillis(500);

  /** An event stream with nothing to say sends a comment this often, so no proxy closes it. */
  static final Duration HEARTBEAT = Duration.ofSeconds(15);

  /**
   * How long looks may go unanswered before the stream gives up: longer than a dead node takes to
   * be downed and its entities to start on the survivors (docs/clustering.md).
   */
  static final Duration UNANSWERED_FOR = Duration.ofMinutes(1);

  private JobEvents() {}

  static <J> Route stream(
      String accountId,
      HeldSlots<String> streams,
      J first,
      Predicate<J> finished,
      Supplier<CompletionStage<J>> look,
      BiFunction<J, Set<String>, List<ServerSentEvent>> eventsOf) {
    if (!streams.take(accountId))
      return ApiDirectives.answer(
          Reply.error(
                  StatusCodes.TOO_MANY_REQUESTS,
                  "this account already follows "
                      + streams.perKey()
                      + " event streams; close one first")
              .withHeader(RawHeader.create("Retry-After", Long.toString(HEARTBEAT.toSeconds()))));
    Set<String> sent = new HashSet<>();
    long[] unansweredSince = {0};
    Source<J, NotUsed> looks =
        finished.test(first)
            ? Source.single(first)
            : Source.single(first)
                .concat(
                    Source.tick(POLL, POLL, "look")
                        .mapAsync(1, tick -> answered(look, unansweredSince))
                        .filter(Optional::isPresent)
                        .map(Optional::get)
                        .takeWhile(job -> !finished.test(job), true));
    return completeOK(
        looks
            .mapConcat(job -> eventsOf.apply(job, sent))
            .keepAlive(HEARTBEAT, ServerSentEvent::heartbeat)
            .watchTermination(
                (notUsed, ended) -> {
                  ended.whenComplete((done, failure) -> streams.release(accountId));
                  return notUsed;
                }),
        EventStreamMarshalling.toEventStream());
  }

  /**
   * The job as a look finds it; empty when the look was not answered, failed when the job is not
   * found or looks went unanswered for {@link #UNANSWERED_FOR} ({@code unansweredSince}: when the
   * first of those in a row failed, in nanoseconds, 0 after an answer).
   */
  private static <J> CompletionStage<Optional<J>> answered(
      Supplier<CompletionStage<J>> look, long[] unansweredSince) {
    return look.get()
        .handle(
            (job, failure) -> {
              if (failure == null) {
                unansweredSince[0] = 0;
                return Optional.of(job);
              }
              long now = System.nanoTime();
              if (unansweredSince[0] == 0) unansweredSince[0] = now;
              if (Failures.unwrap(failure) instanceof Refusal
                  || now - unansweredSince[0] > UNANSWERED_FOR.toNanos())
                return Failures.rethrow(failure);
              return Optional.empty();
            });
  }
}
