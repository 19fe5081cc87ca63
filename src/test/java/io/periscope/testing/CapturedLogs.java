package io.periscope.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Every line the service logs while a test runs, to prove what never appears in them. */
public final class CapturedLogs implements AutoCloseable {
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  public CapturedLogs() {
    appender.start();
    root.addAppender(appender);
  }

  /** Each logged line with its exception, as text. */
  public List<String> lines() {
    synchronized (appender) { // AppenderBase appends under its own lock
      return appender.list.stream()
          .map(
              e ->
                  e.getLoggerName()
                      + " "
                      + e.getFormattedMessage()
                      + (e.getThrowableProxy() == null
                          ? ""
                          : ThrowableProxyUtil.asString(e.getThrowableProxy())))
          .toList();
    }
  }

  /** Fails naming the first line that contains any of {@code secrets}. */
  public void assertNoneContains(String... secrets) {
    for (String line : lines()) {
      for (String secret : secrets) {
        if (secret != null && !secret.isEmpty() && line.contains(secret)) {
          throw new AssertionError("a log line carries a secret: " + line);
        }
      }
    }
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
  }
}
