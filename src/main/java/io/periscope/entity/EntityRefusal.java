package io.periscope.entity;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.pekko.pattern.StatusReply;

/**
 * An entity answered with an error (absent, duplicate…). The caller knows which status that means
 * for its command: a refused create is a conflict, a refused get is not found. Where the caller
 * acts on why, the entity names it with a {@link Code}; the message is for people only, and no code
 * reads it. It crosses the cluster as JSON: its code and its message.
 */
@JsonAutoDetect(
    fieldVisibility = JsonAutoDetect.Visibility.NONE,
    getterVisibility = JsonAutoDetect.Visibility.NONE,
    isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonIgnoreProperties(ignoreUnknown = true)
public final class EntityRefusal extends RuntimeException implements JsonSerializable {
  /** Why an entity refused, where a caller acts on it. */
  public enum Code {
    /** Refused; the message says why. */
    REFUSED,
    /** The watch keeps no run of that id. */
    NO_SUCH_RUN,
    /** The run's answer was lost: the incarnation that took it ended before it answered. */
    RUN_INTERRUPTED,
    /** The owner has no run-all job of that id. */
    NO_SUCH_JOB,
    /** The account holds as many watch ids as it may. */
    NO_ROOM_FOR_WATCH,
    /** A watch asked by its account did not answer in time. */
    WATCH_UNANSWERED,
    /** The channel address is confirmed already. */
    CONFIRMED_ALREADY
  }

  private final Code code;

  public EntityRefusal(String message) {
    this(Code.REFUSED, message);
  }

  @JsonCreator
  public EntityRefusal(@JsonProperty("code") Code code, @JsonProperty("message") String message) {
    super(message, null, false, false);
    this.code = code == null ? Code.REFUSED : code;
  }

  @JsonProperty("code")
  public Code code() {
    return code;
  }

  @JsonProperty("message")
  @Override
  public String getMessage() {
    return super.getMessage();
  }

  /** Two refusals are the same when their code and message are: a refusal is a value. */
  @Override
  public boolean equals(Object other) {
    return other instanceof EntityRefusal r
        && r.code == code
        && java.util.Objects.equals(r.getMessage(), getMessage());
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(code, getMessage());
  }

  /** Whether {@code failure} is (or wraps) an entity's refusal for {@code code}. */
  public static boolean is(Throwable failure, Code code) {
    return Failures.unwrap(failure) instanceof EntityRefusal r && r.code == code;
  }

  /** The error reply of an entity refusing for {@code code}. */
  public static <T> StatusReply<T> reply(Code code, String message) {
    return StatusReply.error(new EntityRefusal(code, message));
  }
}
