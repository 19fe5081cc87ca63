package io.periscope.logging;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.Test;

public class JsonLinesEncoderTest {
  private final ObjectMapper json = new ObjectMapper();
  private final Logger logger = new LoggerContext().getLogger("io.periscope.http.HttpApi");

  private JsonNode encode(String message, Object[] arguments, Throwable thrown) throws Exception {
    LoggingEvent event =
        new LoggingEvent(Logger.class.getName(), logger, Level.WARN, message, thrown, arguments);
    event.setTimeStamp(0);
    event.setThreadName("periscope-pekko.actor.default-dispatcher-5");
    String line = new String(new JsonLinesEncoder().encode(event), StandardCharsets.UTF_8);
    assertTrue("one line", line.endsWith(System.lineSeparator()));
    assertEquals(1, line.lines().count());
    return json.readTree(line);
  }

  @Test
  public void eachKeyValueOfTheLineIsAFieldOfItsOwn() throws Exception {
    JsonNode line =
        encode(
            "event=request method={} path={} status={} ms={} ip={}",
            new Object[] {"GET", "/watches", 200, 12, "127.0.0.1"},
            null);
    assertEquals("1970-01-01T00:00:00Z", line.get("timestamp").asText());
    assertEquals("WARN", line.get("level").asText());
    assertEquals("io.periscope.http.HttpApi", line.get("logger").asText());
    assertEquals("periscope-pekko.actor.default-dispatcher-5", line.get("thread").asText());
    assertEquals("request", line.get("event").asText());
    assertEquals("/watches", line.get("path").asText());
    assertEquals("200", line.get("status").asText());
    assertEquals("127.0.0.1", line.get("ip").asText());
    assertFalse("nothing but pairs: no message", line.has("message"));
  }

  @Test
  public void quotedValuesLoseTheirQuotesAndFreeTextIsTheMessage() throws Exception {
    JsonNode line =
        encode(
            "event=journal-lock-retake-failed reason=\"the \\\"database\\\" went away\" level=3"
                + " then more words",
            null,
            null);
    assertEquals("the \"database\" went away", line.get("reason").asText());
    assertEquals(
        "a pair named like an own field keeps its value", "3", line.get("level_").asText());
    assertEquals("WARN", line.get("level").asText());
    assertEquals("then more words", line.get("message").asText());
  }

  @Test
  public void anExceptionIsItsClassMessageAndFirstFrame() throws Exception {
    JsonNode line =
        encode(
            "event=unhandled-error type={}", new Object[] {"x"}, new IllegalStateException("no"));
    assertEquals("java.lang.IllegalStateException: no", line.get("error").asText());
    assertTrue(line.get("at").asText(), line.get("at").asText().contains("JsonLinesEncoderTest"));
  }

  @Test
  public void theStackCarriesTheWholeErrorWithItsCauses() throws Exception {
    IllegalStateException root = new IllegalStateException("connection refused");
    RuntimeException middle = new RuntimeException("journal write failed", root);
    Exception top = new Exception("run could not be recorded", middle);
    top.addSuppressed(new IllegalArgumentException("while closing"));
    JsonNode line = encode("event=unhandled-error", null, top);
    String stack = line.get("stack").asText();
    assertEquals("java.lang.Exception: run could not be recorded", line.get("error").asText());
    assertTrue(stack, stack.startsWith("java.lang.Exception: run could not be recorded"));
    assertTrue(
        stack, stack.contains("Caused by: java.lang.RuntimeException: journal write failed"));
    assertTrue(
        stack, stack.contains("Caused by: java.lang.IllegalStateException: connection refused"));
    assertTrue(
        stack, stack.contains("Suppressed: java.lang.IllegalArgumentException: while closing"));
    assertTrue(stack, stack.contains("at io.periscope.logging.JsonLinesEncoderTest"));
  }

  @Test
  public void readsBackWhatThePlainLineWrote() {
    KeyValueLine line = KeyValueLine.parse("event=x a=1 b=\"two words\" loose =odd c=");
    assertEquals(Map.of("event", "x", "a", "1", "b", "two words", "c", ""), line.fields());
    assertEquals("loose =odd", line.text());
  }

  @Test
  public void logFormatJsonChoosesTheJsonEncoder() {
    assertTrue(StderrLogging.encoder("json") instanceof JsonLinesEncoder);
    assertFalse(StderrLogging.encoder("plain") instanceof JsonLinesEncoder);
    assertFalse(StderrLogging.encoder(null) instanceof JsonLinesEncoder);
  }
}
