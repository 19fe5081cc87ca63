package io.periscope.auth;

import io.periscope.owner.Role;

/** Who is calling, as the verified token says. */
public record Principal(String accountId, Role role) {
  public boolean isAdmin() {
    return role == Role.ADMIN;
  }
}
