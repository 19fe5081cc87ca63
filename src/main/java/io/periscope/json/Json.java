package io.periscope.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one ObjectMapper for HTTP bodies and files: bounded nesting, no nulls written, strict input.
 */
public final class Json {
  /** Deeper bodies are refused before any object is built. */
  public static final int MAX_NESTING_DEPTH = 32;

  public static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .serializationInclusion(JsonInclude.Include.NON_NULL)
          .addModule(new JavaTimeModule())
          // accessors as generated lambdas, not reflective calls: the same JSON, cheaper per
          // property
          .addModule(new BlackbirdModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          // an amount (a price, a cost) reads as written: 10, never 1E+1
          .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
          .build();

  static {
    MAPPER
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build());
  }

  private Json() {}

  public static JsonNode parse(byte[] bytes) throws JsonProcessingException {
    try {
      return MAPPER.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "cannot write JSON for " + value.getClass().getSimpleName(), e);
    }
  }

  public static String text(Object value) {
    return new String(bytes(value), java.nio.charset.StandardCharsets.UTF_8);
  }
}
