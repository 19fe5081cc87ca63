package io.periscope.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * {@code LOG_FORMAT=json}: one JSON object per line, with {@code timestamp}, {@code level}, {@code
 * logger}, {@code thread}, then each {@code key=value} of the plain line as a field of its own
 * ({@code event} first), any other text as {@code message}, and an exception as {@code error} with
 * its first frame as {@code at} and the whole of it as {@code stack}: every frame, each cause
 * ({@code Caused by:}) and suppressed exception, as logback's plain layout writes them. Logback's
 * own JsonEncoder writes the message as one string and only the SLF4J fluent API's pairs as fields,
 * in a nested list; our lines carry their fields in the message ({@code event=run-finished
 * watch=…}), so this encoder reads them back out (see {@link KeyValueLine}) and writes them with
 * Jackson.
 */
public final class JsonLinesEncoder extends EncoderBase<ILoggingEvent> {
  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] NEWLINE = System.lineSeparator().getBytes();

  /** The encoder's own fields: a line's pair of one of these names is written with a '_' after. */
  private static final Set<String> OWN_FIELDS =
      Set.of("timestamp", "level", "logger", "thread", "error", "at", "stack");

  @Override
  public byte[] headerBytes() {
    return null;
  }

  @Override
  public byte[] footerBytes() {
    return null;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(bytes)) {
      json.writeStartObject();
      json.writeStringField("timestamp", Instant.ofEpochMilli(event.getTimeStamp()).toString());
      json.writeStringField("level", event.getLevel().toString());
      json.writeStringField("logger", event.getLoggerName());
      json.writeStringField("thread", event.getThreadName());
      KeyValueLine line = KeyValueLine.parse(event.getFormattedMessage());
      for (Map.Entry<String, String> pair : line.fields().entrySet()) {
        String key = pair.getKey();
        json.writeStringField(OWN_FIELDS.contains(key) ? key + "_" : key, pair.getValue());
      }
      if (!line.text().isEmpty())
        json.writeStringField(
            line.fields().containsKey("message") ? "text" : "message", line.text());
      IThrowableProxy thrown = event.getThrowableProxy();
      if (thrown != null) {
        json.writeStringField("error", thrown.getClassName() + ": " + thrown.getMessage());
        StackTraceElementProxy[] frames = thrown.getStackTraceElementProxyArray();
        if (frames.length > 0) json.writeStringField("at", frames[0].getSTEAsString());
        json.writeStringField("stack", ThrowableProxyUtil.asString(thrown));
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    bytes.writeBytes(NEWLINE);
    return bytes.toByteArray();
  }
}
