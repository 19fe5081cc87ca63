package io.periscope.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.entity.Asks;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.llm.Judged;
import io.periscope.llm.ModelUsage;
import io.periscope.watch.RunPipeline;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchValidator;
import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * Dry runs: a watch collected and judged now, as its next run would be, with nothing kept but the
 * model usage. The watch entity is only asked what it remembers; it records nothing, so the seen
 * items, the schedule and the run history stay as they were, and no alert is made.
 */
public final class DryRuns {
  /** The fields a saved watch's dry run may override, besides {@code includeSeen}. */
  static final Set<String> OVERRIDES = Set.of("condition", "threshold", "weakThreshold", "sources");

  static final String INCLUDE_SEEN = "includeSeen";

  /** A dry run of a watch as the pipeline makes it ({@link Pipeline#trial}). */
  @FunctionalInterface
  public interface Trial {
    CompletionStage<RunRecord> trial(Watch watch, RunPipeline.Memory memory, String usageWatch);
  }

  /**
   * What a dry run concluded: {@code result} as run-now answers it (lean), {@code judged} what was
   * put before the model and set aside, {@code usage} what its model calls took.
   */
  public record Result(RunView result, Judged judged, ModelUsage usage) {
    static Result of(String watchId, RunRecord record) {
      return new Result(RunView.of(watchId, record), record.judged(), record.usage());
    }
  }

  private final Trial pipeline;
  private final BiFunction<String, String, RecipientRef<WatchEntity.Command>> watches;
  private final Asks asks;
  private final ZoneId scheduleZone;
  private final Clock clock;

  /**
   * @param scheduleZone the time zone of watches that name none (SCHEDULE_TIME_ZONE)
   */
  public DryRuns(
      Trial pipeline,
      BiFunction<String, String, RecipientRef<WatchEntity.Command>> watches,
      Asks asks,
      ZoneId scheduleZone,
      Clock clock) {
    this.pipeline = pipeline;
    this.watches = watches;
    this.asks = asks;
    this.scheduleZone = scheduleZone;
    this.clock = clock;
  }

  /**
   * The saved watch {@code id} of {@code accountId}, with the body's overrides, judged now against
   * what it remembers (refused when there is no such watch; a {@link ValidationException} for a bad
   * body, checked before the watch is asked for).
   */
  public CompletionStage<Result> saved(String accountId, String id, JsonNode body) {
    boolean includeSeen = includeSeen(body, OVERRIDES);
    return asks.<WatchEntity.Command, WatchEntity.Recalled>ask(
            watches.apply(accountId, id), WatchEntity.Recall::new)
        .thenCompose(
            recalled ->
                judge(
                    overridden(recalled.watch(), body),
                    recalled.memory(),
                    includeSeen,
                    recalled.watch().id()));
  }

  /**
   * The whole watch {@code body}, checked as a create checks it, judged now as its first run would
   * be: every source takes its baseline now. Its usage is the account's, of no watch.
   */
  public CompletionStage<Result> unsaved(Watch watch) {
    return judge(watch, new RunPipeline.Memory(Set.of(), Map.of(), clock.instant()), false, null);
  }

  /** The watch a create body describes, checked exactly as the create checks it. */
  public Watch described(JsonNode body, String accountId) {
    return WatchValidator.validate(body, null, accountId, scheduleZone);
  }

  private CompletionStage<Result> judge(
      Watch watch, RunPipeline.Memory memory, boolean includeSeen, String usageWatch) {
    RunPipeline.Memory told =
        includeSeen
            ? new RunPipeline.Memory(Set.of(), memory.baselines(), memory.baselineAt())
            : memory;
    return pipeline
        .trial(watch, told, usageWatch)
        .thenApply(record -> Result.of(watch.id(), record));
  }

  /** {@code stored} with the body's overrides (see {@link WatchValidator#overridden}). */
  Watch overridden(Watch stored, JsonNode body) {
    return WatchValidator.overridden(stored, body, OVERRIDES, scheduleZone);
  }

  /**
   * The body's {@code includeSeen} (default false); any field but it and those {@code allowed} is
   * refused, so a misspelt override is not silently ignored.
   */
  static boolean includeSeen(JsonNode body, Set<String> allowed) {
    List<Issue> issues = new ArrayList<>();
    if (body == null || !body.isObject()) {
      throw new ValidationException(List.of(Issue.at("the body must be a JSON object")));
    }
    body.fieldNames()
        .forEachRemaining(
            field -> {
              if (!allowed.contains(field) && !field.equals(INCLUDE_SEEN))
                issues.add(
                    Issue.at(
                        "is not one of the fields a dry run overrides: condition, threshold,"
                            + " weakThreshold, sources, includeSeen",
                        field));
            });
    JsonNode flag = body.get(INCLUDE_SEEN);
    if (flag != null && !flag.isNull() && !flag.isBoolean())
      issues.add(Issue.at("must be true or false", INCLUDE_SEEN));
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return flag != null && flag.asBoolean(false);
  }
}
