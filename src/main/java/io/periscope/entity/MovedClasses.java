package io.periscope.entity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.serialization.jackson.JacksonMigration;

/**
 * Reads messages and events that name a class by where it used to be. Jackson's manifest is the
 * class name, so a serialized class that moves must still be found under its old name: the journal
 * holds its events and snapshots, and a node of the previous version may send it during a rolling
 * upgrade. Each old name is bound to this migration under {@code
 * pekko.serialization.jackson.migrations} in conf/periscope.conf; the JSON itself is unchanged.
 */
public final class MovedClasses extends JacksonMigration {
  /**
   * The account entity's nested classes that are serialized: its commands, replies, events, state.
   * (Its run-all messages, never journaled, went with run-all to {@code RunAllEntity}.)
   */
  private static final List<String> ACCOUNT_ENTITY_CLASSES =
      List.of(
          "Access",
          "AccountCreated",
          "AccountDeleted",
          "AddWatch",
          "ApiTokenCreated",
          "ApiTokenRevoked",
          "ApiTokenUsed",
          "ChangePassword",
          "ChangeRole",
          "CheckToken",
          "CreateAccount",
          "CreateApiToken",
          "DeleteAccount",
          "DeleteWatch",
          "DisabledChanged",
          "EmailVerified",
          "EndSession",
          "ForgetWatchIfGone",
          "GetAccess",
          "GetAccount",
          "IssueToken",
          "ListWatches",
          "PasswordReset",
          "ResetPassword",
          "RevokeApiToken",
          "RoleChanged",
          "SessionEnded",
          "SetDisabled",
          "State",
          "TokenIssued",
          "TouchApiToken",
          "VerifiedByProvider",
          "VerifyEmail",
          "WatchChecked",
          "WatchIds",
          "WatchRemoved",
          "WatchesAdded",
          "WriteRegistrations");

  /** The package's own serialized classes, outside the entity. */
  private static final List<String> ACCOUNT_PACKAGE_CLASSES =
      List.of("Account", "ApiToken", "EndedSession", "PendingToken");

  /** Old class name to new; written without a version, read as version 1. */
  static final Map<String, String> NEW_NAMES =
      withAccountPackage(
          Map.ofEntries(
              Map.entry("io.periscope.run.RunRecord", "io.periscope.watch.RunRecord"),
              Map.entry(
                  "io.periscope.model.ModelConfigEntity$State",
                  "io.periscope.llm.ModelConfigEntity$State"),
              Map.entry(
                  "io.periscope.model.ModelConfigEntity$Get",
                  "io.periscope.llm.ModelConfigEntity$Get"),
              Map.entry(
                  "io.periscope.model.ModelConfigEntity$Change",
                  "io.periscope.llm.ModelConfigEntity$Change"),
              Map.entry(
                  "io.periscope.model.ModelConfigEntity$Reset",
                  "io.periscope.llm.ModelConfigEntity$Reset"),
              Map.entry(
                  "io.periscope.model.ModelConfigEntity$Changed",
                  "io.periscope.llm.ModelConfigEntity$Changed"),
              Map.entry(
                  "io.periscope.model.ModelConfigEntity$WasReset",
                  "io.periscope.llm.ModelConfigEntity$WasReset"),
              Map.entry(
                  "io.periscope.model.ModelConfiguration", "io.periscope.llm.ModelConfiguration"),
              Map.entry("io.periscope.model.ModelChoice", "io.periscope.llm.ModelChoice"),
              Map.entry("io.periscope.model.Verdict", "io.periscope.llm.Verdict"),
              Map.entry(
                  "io.periscope.model.Verdict$Evidence", "io.periscope.llm.Verdict$Evidence")));

  /**
   * {@code moved} plus the owner package, which became {@code io.periscope.account} with its entity
   * {@code OwnerEntity} renamed {@code AccountEntity} (one name, account, for one concept).
   */
  private static Map<String, String> withAccountPackage(Map<String, String> moved) {
    Map<String, String> names = new LinkedHashMap<>(moved);
    for (String nested : ACCOUNT_ENTITY_CLASSES) {
      names.put(
          "io.periscope.owner.OwnerEntity$" + nested,
          "io.periscope.account.AccountEntity$" + nested);
    }
    for (String top : ACCOUNT_PACKAGE_CLASSES) {
      names.put("io.periscope.owner." + top, "io.periscope.account." + top);
    }
    return Map.copyOf(names);
  }

  @Override
  public int currentVersion() {
    return 2;
  }

  @Override
  public String transformClassName(int fromVersion, String className) {
    return NEW_NAMES.getOrDefault(className, className);
  }

  @Override
  public JsonNode transform(int fromVersion, JsonNode json) {
    return json;
  }
}
