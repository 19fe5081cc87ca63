package io.periscope.auth;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/** What an account may do: a user everything on its own data, an admin also /admin/*. */
public enum Role {
  USER,
  ADMIN;

  @JsonValue
  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  @JsonCreator
  public static Role fromWire(String value) {
    return parse(value)
        .orElseThrow(() -> new IllegalArgumentException("role must be 'user' or 'admin'"));
  }

  public static Optional<Role> parse(String value) {
    return Arrays.stream(values()).filter(r -> r.wire().equals(value)).findFirst();
  }
}
