package io.periscope.owner;

import io.periscope.auth.Role;
import io.periscope.serialization.JsonSerializable;
import java.time.Instant;

/** The credentials and role of an account. {@code passwordHash} is a bcrypt hash and never leaves the service. */
public record Account(String id, String email, Role role, String passwordHash, Instant createdAt)
    implements JsonSerializable {

  /** What may be shown to the account's owner or an admin. */
  public record View(String id, String email, String role) {}

  public View view() {
    return new View(id, email, role.wire());
  }
}
