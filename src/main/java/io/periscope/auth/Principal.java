package io.periscope.auth;

/** Who is calling, as the verified token says. */
public record Principal(String accountId, Role role) {
  public boolean isAdmin() {
    return role == Role.ADMIN;
  }
}
