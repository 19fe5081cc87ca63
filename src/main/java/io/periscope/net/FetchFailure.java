package io.periscope.net;

/**
 * Why a fetch of a user-supplied URL failed. Messages name the URL's host at most, never headers or
 * bodies.
 */
public final class FetchFailure extends RuntimeException {
  public enum Kind {
    /** The SSRF guard refused the address or the URL: no request was sent there. */
    REFUSED("refused"),
    /** DNS failed, the connection failed or broke. */
    UNREACHABLE("unreachable"),
    /** An answer that is not a success (or too many redirects); {@code httpStatus} says which. */
    HTTP("http"),
    /** The body exceeded the byte limit; reading stopped there. */
    TOO_LARGE("too-large"),
    /** A connect, read or overall deadline passed. */
    TIMEOUT("timeout");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }

  private final Kind kind;
  private final Integer httpStatus;

  public FetchFailure(Kind kind, Integer httpStatus, String message) {
    super(message, null, false, false);
    this.kind = kind;
    this.httpStatus = httpStatus;
  }

  public Kind kind() {
    return kind;
  }

  /** Null unless the failure is an HTTP answer. */
  public Integer httpStatus() {
    return httpStatus;
  }
}
