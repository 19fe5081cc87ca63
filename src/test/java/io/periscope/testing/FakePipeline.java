package io.periscope.testing;

import io.periscope.notify.Alert;
import io.periscope.notify.Delivery;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The tests' run pipeline: a watch entity's runs and deliveries without collecting or judging. Each
 * run is answered by what {@link #runs} was given (a run that finds nothing new unless told), each
 * delivery attempt by what {@link #delivers} was given (delivered unless told), or held for the
 * test to finish by hand ({@link #holdRuns}, {@link #holdDeliveries}). It keeps what the entity
 * asked and told, in order, for the test to read.
 */
public final class FakePipeline implements RunPipeline {
  /** One run as the watch asked for it. */
  public record Call(Watch watch, Memory memory, String trigger, Instant startedAt) {}

  /** A run that crashed, as the watch recorded it. */
  public record Crash(Watch watch, RunRecord record) {}

  /** A delivery that failed for good. */
  public record Failure(Alert alert, String channel, String reason) {}

  public final List<Call> calls = new CopyOnWriteArrayList<>();
  public final List<CompletableFuture<Outcome>> heldRuns = new CopyOnWriteArrayList<>();

  /** The channel of each delivery attempt. */
  public final List<String> attempts = new CopyOnWriteArrayList<>();

  public final List<CompletableFuture<List<Delivery>>> heldAttempts = new CopyOnWriteArrayList<>();
  public final List<Crash> crashes = new CopyOnWriteArrayList<>();

  /** The runs whose alert was going out when an earlier incarnation of the watch stopped. */
  public final List<String> interrupted = new CopyOnWriteArrayList<>();

  public final List<Failure> failedForGood = new CopyOnWriteArrayList<>();

  private volatile Function<Call, CompletionStage<Outcome>> runs =
      call -> CompletableFuture.completedFuture(answer(RunRecord.NOTHING_NEW));
  private volatile BiFunction<String, Alert, CompletionStage<List<Delivery>>> deliveries =
      (channel, alert) -> CompletableFuture.completedFuture(List.of(Delivery.delivered(channel)));
  private volatile Consumer<Failure> whenFailedForGood = failure -> {};

  /** A pipeline for tests in which no run may start: a run fails the test. */
  public static FakePipeline noRuns() {
    return new FakePipeline()
        .runs(
            call -> {
              throw new AssertionError("no run expected");
            });
  }

  /** Also hands each delivery that failed for good to {@code tell}, as the operator is told. */
  public FakePipeline whenFailedForGood(Consumer<Failure> tell) {
    whenFailedForGood = tell;
    return this;
  }

  /** Runs answered by {@code answer}. */
  public FakePipeline runs(Function<Call, CompletionStage<Outcome>> answer) {
    runs = answer;
    return this;
  }

  /** Runs that end at once as {@code answer} says. */
  public FakePipeline answers(Function<Call, Outcome> answer) {
    return runs(call -> CompletableFuture.completedFuture(answer.apply(call)));
  }

  /** Runs that go on until the test completes them: {@code heldRuns.get(i).complete(…)}. */
  public FakePipeline holdRuns() {
    return runs(
        call -> {
          CompletableFuture<Outcome> run = new CompletableFuture<>();
          heldRuns.add(run);
          return run;
        });
  }

  /** Delivery attempts answered by {@code answer}. */
  public FakePipeline delivers(BiFunction<String, Alert, CompletionStage<List<Delivery>>> answer) {
    deliveries = answer;
    return this;
  }

  /** Delivery attempts that go on until the test completes them: {@code heldAttempts.get(i)}. */
  public FakePipeline holdDeliveries() {
    return delivers(
        (channel, alert) -> {
          CompletableFuture<List<Delivery>> attempt = new CompletableFuture<>();
          heldAttempts.add(attempt);
          return attempt;
        });
  }

  @Override
  public CompletionStage<Outcome> run(
      Watch watch, Memory memory, String trigger, Instant startedAt) {
    Call call = new Call(watch, memory, trigger, startedAt);
    calls.add(call);
    return runs.apply(call);
  }

  @Override
  public CompletionStage<List<Delivery>> deliver(String channel, Alert alert) {
    attempts.add(channel);
    return deliveries.apply(channel, alert);
  }

  @Override
  public void runCrashed(Watch watch, RunRecord record) {
    crashes.add(new Crash(watch, record));
  }

  @Override
  public void alertInterrupted(Watch watch, String runId, List<String> channels) {
    interrupted.add(runId);
  }

  @Override
  public void deliveryFailed(Alert alert, String channel, String reason) {
    Failure failure = new Failure(alert, channel, reason);
    failedForGood.add(failure);
    whenFailedForGood.accept(failure);
  }

  /** A run of {@link TestWatches#acme} that ended as {@code outcome}, marking nothing seen. */
  public static Outcome answer(String outcome) {
    return new Outcome(record(outcome), List.of());
  }

  /**
   * A run that alerts {@code channels}, the alert decided at {@code at}, having judged one item not
   * seen before.
   */
  public static Outcome alerting(List<String> channels, Instant at) {
    RunRecord record = record(RunRecord.ALERT);
    return new Outcome(
        record,
        List.of("item-" + UUID.randomUUID()),
        new PendingAlert(channels, alertOf(record, at)),
        Map.of());
  }

  /** The record of a manual run that ended as {@code outcome}, one item collected and judged. */
  public static RunRecord record(String outcome) {
    return new RunRecordBuilder().outcome(outcome).build();
  }

  /** The alert of {@link TestWatches#acme}'s run {@code record}, decided at {@code at}. */
  public static Alert alertOf(RunRecord record, Instant at) {
    return new Alert(
        "alice",
        "acme",
        "Acme",
        Alert.Strength.CONFIRMED,
        0.9,
        "Acme set a date.",
        List.of(),
        "Acme announces a launch date",
        at,
        record.runId());
  }
}
