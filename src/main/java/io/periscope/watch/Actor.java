package io.periscope.watch;

import io.periscope.entity.JsonSerializable;

/**
 * Who changed a watch's definition: {@code kind} is {@link #OWNER} (the account, through the
 * interface), {@link #ADMIN} (an administrator acting on the account), {@link #IMPORT} (an import
 * of an account's document) or {@link #CLI} (the operator's command line); {@code account} is the
 * account that acted ({@code periscope-cli} for the command line). Events written before actors
 * were recorded carry none.
 */
public record Actor(String kind, String account) implements JsonSerializable {
  public static final String OWNER = "owner";
  public static final String ADMIN = "admin";
  public static final String IMPORT = "import";
  public static final String CLI = "cli";

  public static Actor owner(String account) {
    return new Actor(OWNER, account);
  }

  public static Actor admin(String account) {
    return new Actor(ADMIN, account);
  }

  public static Actor importBy(String account) {
    return new Actor(IMPORT, account);
  }

  public static Actor cli() {
    return new Actor(CLI, "periscope-cli");
  }
}
