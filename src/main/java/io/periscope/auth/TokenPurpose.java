package io.periscope.auth;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a single-use token mailed to an account's address is for. */
public enum TokenPurpose {
  VERIFY_EMAIL,
  RESET_PASSWORD;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
