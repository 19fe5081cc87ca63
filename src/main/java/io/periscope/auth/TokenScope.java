package io.periscope.auth;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What a personal API token may do, on top of what its account may (docs/accounts.md, "Personal API
 * tokens"). The route layer asks for one scope per request, by the request alone: {@code admin} for
 * every path under {@code /admin} (which also needs an administrator's account), {@code read} for
 * any other {@code GET} but reading a webhook's signing secret (a credential), {@code watches} for
 * that and any other request, which changes or spends something of the account (watches, runs,
 * feedback, drafts, trust rules, channels, devices, imports, revoking its tokens).
 */
public enum TokenScope {
  READ,
  WATCHES,
  ADMIN;

  /** What a token made without naming scopes may do: all a user does, nothing an admin does. */
  public static final Set<TokenScope> DEFAULT =
      Collections.unmodifiableSet(EnumSet.of(READ, WATCHES));

  /**
   * What a token made before scopes existed may do: the same as {@link #DEFAULT}, so an
   * administrator's old token no longer reaches {@code /admin} (a new token with {@code admin}
   * does).
   */
  public static final Set<TokenScope> BEFORE_SCOPES = DEFAULT;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static TokenScope fromWire(String value) {
    return parse(value)
        .orElseThrow(() -> new IllegalArgumentException("a scope is 'read', 'watches' or 'admin'"));
  }

  public static Optional<TokenScope> parse(String value) {
    return Arrays.stream(values()).filter(s -> s.wire().equals(value)).findFirst();
  }
}
