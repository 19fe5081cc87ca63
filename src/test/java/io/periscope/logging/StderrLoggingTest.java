package io.periscope.logging;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import java.nio.charset.StandardCharsets;
import org.junit.After;
import org.junit.Test;
import org.slf4j.LoggerFactory;

public class StderrLoggingTest {
  @After
  public void clearProperties() {
    System.clearProperty("PERISCOPE_LOG_LEVEL");
    System.clearProperty("logback.configurationFile");
  }

  @Test
  public void logbackFindsItThroughTheServiceLoader() {
    LoggerContext running = (LoggerContext) LoggerFactory.getILoggerFactory();
    assertNotNull(
        "the logging this JVM runs with is StderrLogging's",
        running.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR"));
  }

  @Test
  @SuppressWarnings("unchecked")
  public void writesOneKeyValueLinePerEventToStandardError() {
    LoggerContext context = new LoggerContext();
    assertEquals(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY, new StderrLogging().configure(context));

    ConsoleAppender<ILoggingEvent> stderr =
        (ConsoleAppender<ILoggingEvent>)
            context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
    assertEquals("System.err", stderr.getTarget());
    Logger logger = context.getLogger("io.periscope.http.HttpApi");
    LoggingEvent event =
        new LoggingEvent(
            Logger.class.getName(),
            logger,
            Level.INFO,
            "event=ready ms={}",
            null,
            new Object[] {42});
    event.setTimeStamp(0);
    String line = new String(stderr.getEncoder().encode(event), StandardCharsets.UTF_8);
    assertEquals(
        "1970-01-01T00:00:00.000Z level=INFO logger=i.periscope.http.HttpApi event=ready ms=42"
            + System.lineSeparator(),
        line);
  }

  @Test
  public void quietsTheLibrariesThatNarrateTheirMachinery() {
    LoggerContext context = new LoggerContext();
    new StderrLogging().configure(context);
    for (String name : StderrLogging.QUIET)
      assertEquals(name, Level.WARN, context.getLogger(name).getLevel());
    assertEquals(Level.WARN, context.getLogger("slick.jdbc.JdbcBackend").getEffectiveLevel());
    assertEquals(
        Level.WARN, context.getLogger("org.apache.pekko.cluster.Cluster").getEffectiveLevel());
  }

  @Test
  public void letsPekkoSayMoreWhenAskedTo() {
    System.setProperty("PEKKO_LOG_LEVEL", "INFO");
    try {
      LoggerContext context = new LoggerContext();
      new StderrLogging().configure(context);
      assertEquals(
          Level.INFO, context.getLogger("org.apache.pekko.cluster.Cluster").getEffectiveLevel());
    } finally {
      System.clearProperty("PEKKO_LOG_LEVEL");
    }
  }

  @Test
  public void takesItsLevelFromPeriscopeLogLevel() {
    System.setProperty("PERISCOPE_LOG_LEVEL", "WARN");
    LoggerContext context = new LoggerContext();
    new StderrLogging().configure(context);
    assertEquals(Level.WARN, context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel());
  }

  @Test
  public void leavesAnOperatorsConfigurationFileToLogback() {
    System.setProperty("logback.configurationFile", "operator-logback.xml");
    LoggerContext context = new LoggerContext();
    assertEquals(ExecutionStatus.INVOKE_NEXT_IF_ANY, new StderrLogging().configure(context));
    assertFalse(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext());
  }
}
