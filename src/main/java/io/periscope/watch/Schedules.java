package io.periscope.watch;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;

/** Five-field UNIX cron expressions, evaluated in UTC. */
public final class Schedules {
  private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  private Schedules() {}

  /** The parsed expression, or a message saying why it is not a usable five-field cron. */
  public static Cron parse(String expression) {
    String trimmed = expression.trim();
    if (trimmed.split("\\s+").length != 5) {
      throw new IllegalArgumentException("must be a five-field cron expression (minute hour day month weekday)");
    }
    Cron cron = PARSER.parse(trimmed).validate();
    ZonedDateTime probe = ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    if (ExecutionTime.forCron(cron).nextExecution(probe).isEmpty()) {
      throw new IllegalArgumentException("never comes due");
    }
    return cron;
  }

  /**
   * The next fire time after a due time (or a change) at {@code after}: the first due time after it, unless
   * that is already past at {@code now} — slots missed while nothing ran are not made up one by one — then the
   * first due time after {@code now}.
   */
  public static Instant nextFireAfter(String expression, Instant after, Instant now) {
    ExecutionTime times = ExecutionTime.forCron(parse(expression));
    Instant next = times.nextExecution(after.atZone(ZoneOffset.UTC)).orElseThrow().toInstant();
    return next.isAfter(now) ? next : times.nextExecution(now.atZone(ZoneOffset.UTC)).orElseThrow().toInstant();
  }
}
