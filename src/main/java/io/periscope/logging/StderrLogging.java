package io.periscope.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.util.OptionHelper;
import java.util.List;

/**
 * The service's logging, set up in code: one line per event, {@code key=value} fields, on stderr
 * (standard output belongs to the command line's results), at {@code PERISCOPE_LOG_LEVEL} (a system
 * property or the environment; INFO by default). Logback finds it through {@code
 * META-INF/services}. Configuring from an XML file loaded about 270 more classes of logback's XML
 * machinery at every start; an operator's own file still wins when {@code
 * -Dlogback.configurationFile} names one. {@code LOG_FORMAT=json} writes the same events as JSON
 * lines ({@link JsonLinesEncoder}); any other value but {@code plain} stops the start ({@code
 * Settings}). Pekko's own machinery (cluster membership, sharding, remoting) logs at {@code
 * PEKKO_LOG_LEVEL}, WARN by default: a start then reads as the service's few lines.
 */
public final class StderrLogging extends ContextAwareBase implements Configurator {
  static final String PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSS'Z',UTC} level=%level logger=%logger{24} %msg%n%ex{short}";

  /** Chatty at INFO about their own machinery: only their warnings are news. */
  static final List<String> QUIET =
      List.of(
          "com.zaxxer.hikari",
          "slick",
          // a failed probe of /ready while a node starts or stops
          "org.apache.pekko.management.internal.HealthChecksImpl");

  /** Pekko's loggers, at PEKKO_LOG_LEVEL. */
  static final String PEKKO = "org.apache.pekko";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (OptionHelper.getSystemProperty("logback.configurationFile") != null)
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    Encoder<ILoggingEvent> encoder = encoder(setting("LOG_FORMAT"));
    encoder.setContext(context);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(setting("PERISCOPE_LOG_LEVEL"), Level.INFO));
    root.addAppender(stderr);
    for (String name : QUIET) context.getLogger(name).setLevel(Level.WARN);
    context.getLogger(PEKKO).setLevel(Level.toLevel(setting("PEKKO_LOG_LEVEL"), Level.WARN));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  static Encoder<ILoggingEvent> encoder(String format) {
    if ("json".equals(format)) return new JsonLinesEncoder();
    PatternLayoutEncoder plain = new PatternLayoutEncoder();
    plain.setPattern(PATTERN);
    return plain;
  }

  /** Whether events are written as JSON lines, where every line a collector reads must be JSON. */
  public static boolean jsonLines() {
    return "json".equals(setting("LOG_FORMAT"));
  }

  /** A system property, else the environment variable of the same name. */
  private static String setting(String name) {
    String property = System.getProperty(name);
    return property != null ? property : System.getenv(name);
  }
}
