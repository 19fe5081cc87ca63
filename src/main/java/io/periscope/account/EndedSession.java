package io.periscope.account;

import io.periscope.entity.JsonSerializable;
import java.time.Instant;

/**
 * A sign-in its holder ended (signed out): its token is refused until {@code until}, when it would
 * have expired anyway and is forgotten.
 */
public record EndedSession(String sessionId, Instant until) implements JsonSerializable {}
