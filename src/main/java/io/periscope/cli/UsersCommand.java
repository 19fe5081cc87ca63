package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.periscope.account.AccountAdmin;
import io.periscope.account.Accounts;
import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.config.Settings;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.runtime.ServiceFile;
import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code users}: the accounts, administered by the operator. Each command goes through the service
 * running on this data directory (the /admin/users routes, with a short-lived token of the
 * operator), so its entities keep one writer, or, when none runs, holds the data-directory lock and
 * does the same on the journal itself ({@link AccountAdmin}, as {@link Principal#OPERATOR}). Either
 * way the action is in the audit log, by {@code periscope-cli}, and the last enabled administrator
 * stays one.
 */
@Command(
    name = "users",
    mixinStandardHelpOptions = true,
    description = "Manages the accounts (each action is written to the audit log).",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      UsersCommand.Create.class,
      UsersCommand.ListUsers.class,
      UsersCommand.Disable.class,
      UsersCommand.Enable.class,
      UsersCommand.SetRole.class,
      UsersCommand.ResetPassword.class,
      UsersCommand.Delete.class
    })
final class UsersCommand implements Callable<Integer> {
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  @ParentCommand Root root;
  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "users needs a command");
  }

  /** One action, as the service's route does it and as this process does it on the journal. */
  private interface Action {
    JsonNode throughService(ServiceFile service, Settings settings, HttpClient http)
        throws Exception;

    CompletionStage<?> locally(AccountAdmin admin);
  }

  /** The action's answer (an account, a list...) as JSON, the same either way. */
  private JsonNode act(Action action) throws Exception {
    Config config = root.quietConfig();
    Settings settings = Settings.from(config);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    return SingleWriter.act(
        settings,
        http,
        service -> action.throughService(service, settings, http),
        () ->
            SingleWriter.onJournal(
                config,
                settings,
                app ->
                    Json.MAPPER.valueToTree(
                        action
                            .locally(app.accountAdmin())
                            .toCompletableFuture()
                            .get(PATIENCE.toSeconds(), TimeUnit.SECONDS))));
  }

  /** A call of /admin/users[/ID[/what]] as the operator. */
  private static Action route(
      String method,
      String path,
      Object body,
      java.util.function.Function<AccountAdmin, CompletionStage<?>> locally) {
    return new Action() {
      @Override
      public JsonNode throughService(ServiceFile service, Settings settings, HttpClient http)
          throws Exception {
        return SingleWriter.asOperator(service, settings, http, method, path, body);
      }

      @Override
      public CompletionStage<?> locally(AccountAdmin admin) {
        return locally.apply(admin);
      }
    };
  }

  private static String userPath(String id, String rest) {
    return "/admin/users/" + SingleWriter.segment(id) + rest;
  }

  /** {@code <id> <role> <active|disabled> <email>}, and {@code unverified} when it is. */
  private static String line(JsonNode user) {
    return user.path("id").asText()
        + " "
        + user.path("role").asText()
        + " "
        + (user.path("disabled").asBoolean() ? "disabled" : "active")
        + " "
        + user.path("email").asText()
        + (user.path("emailVerified").asBoolean(true) ? "" : " unverified");
  }

  private static Role role(CommandSpec spec, String role) {
    return Role.parse(role)
        .orElseThrow(
            () ->
                new ParameterException(
                    spec.commandLine(), "the role must be 'user' or 'admin', not '" + role + "'"));
  }

  // ---- create -----------------------------------------------------------------------------------

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Creates a verified account. The password is the first line of standard input (a hidden"
            + " prompt on a terminal).",
        "Works while the service runs (through it) and while it does not (on the journal)."
      })
  static final class Create implements Callable<Integer> {
    @ParentCommand private UsersCommand users;

    @Option(names = "--id", required = true, paramLabel = "ID", description = "the account's id")
    private String id;

    @Option(names = "--email", required = true, paramLabel = "EMAIL")
    private String email;

    @Option(names = "--role", required = true, paramLabel = "ROLE", description = "admin or user")
    private String role;

    @Override
    public Integer call() throws Exception {
      Accounts.NewAccount request;
      try {
        request = Accounts.validate(id, email, role, readPassword());
      } catch (ValidationException e) {
        users.root.err.println(
            "error: "
                + e.issues().stream()
                    .map(i -> i.path().get(0) + " " + i.message())
                    .collect(Collectors.joining("; ")));
        return ExitCodes.FAILED;
      }
      JsonNode created =
          users.act(
              route(
                  "POST",
                  "/admin/users",
                  Map.of(
                      "id",
                      request.id(),
                      "email",
                      request.email(),
                      "role",
                      request.role().wire(),
                      "password",
                      request.password()),
                  admin ->
                      admin
                          .create(Principal.OPERATOR, request)
                          .thenApply(account -> account.view())));
      users.root.out.println(
          "created "
              + created.path("role").asText()
              + " "
              + created.path("id").asText()
              + " <"
              + created.path("email").asText()
              + ">");
      return ExitCodes.OK;
    }
  }

  // ---- list -------------------------------------------------------------------------------------

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = {
        "Lists the accounts, one a line: '<id> <role> <active|disabled> <email>', then"
            + " 'unverified' for an address not proven yet.",
      })
  static final class ListUsers implements Callable<Integer> {
    @ParentCommand private UsersCommand users;
    @Spec private CommandSpec spec;

    @Option(names = "--role", paramLabel = "ROLE", description = "only admin or user accounts")
    private String role;

    @Option(
        names = "--status",
        paramLabel = "STATUS",
        description = "only active or disabled accounts")
    private String status;

    @Option(
        names = {"-q", "--query"},
        paramLabel = "TEXT",
        description = "only accounts whose id or address contains TEXT (any case)")
    private String query;

    @Option(names = "--json", description = "one JSON document {users: [User]}")
    private boolean json;

    @Override
    public Integer call() throws Exception {
      if (role != null) role(spec, role);
      if (status != null && !status.equals("active") && !status.equals("disabled"))
        throw new ParameterException(
            spec.commandLine(), "the status must be 'active' or 'disabled', not '" + status + "'");
      List<String> query = new ArrayList<>();
      if (role != null) query.add("role=" + SingleWriter.segment(role));
      if (status != null) query.add("status=" + SingleWriter.segment(status));
      if (this.query != null) query.add("q=" + SingleWriter.segment(this.query));
      JsonNode found =
          users.act(
              route(
                  "GET",
                  "/admin/users" + (query.isEmpty() ? "" : "?" + String.join("&", query)),
                  null,
                  admin ->
                      admin
                          .list(AccountAdmin.Filter.of(role, status, this.query))
                          .thenApply(list -> Map.of("users", list))));
      if (json) users.root.out.println(Json.text(found));
      else found.path("users").forEach(u -> users.root.out.println(line(u)));
      return ExitCodes.OK;
    }
  }

  // ---- changes ----------------------------------------------------------------------------------

  /** A change of one account, which then prints the account's line. */
  private abstract static class AccountChange implements Callable<Integer> {
    @ParentCommand UsersCommand users;

    @Parameters(index = "0", paramLabel = "ID", description = "the account's id")
    String id;

    abstract Action change();

    @Override
    public Integer call() throws Exception {
      users.root.out.println(line(users.act(change())));
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "disable",
      mixinStandardHelpOptions = true,
      description = {
        "Disables an account: its sign-ins and API tokens stop working (on every node within"
            + " seconds), its watches stop running; nothing is deleted.",
        "The last enabled administrator cannot be disabled."
      })
  static final class Disable extends AccountChange {
    @Override
    Action change() {
      return route(
          "POST", userPath(id, "/disable"), null, admin -> admin.disable(Principal.OPERATOR, id));
    }
  }

  @Command(
      name = "enable",
      mixinStandardHelpOptions = true,
      description = "Enables a disabled account again (its earlier sign-ins stay ended).")
  static final class Enable extends AccountChange {
    @Override
    Action change() {
      return route(
          "POST", userPath(id, "/enable"), null, admin -> admin.enable(Principal.OPERATOR, id));
    }
  }

  @Command(
      name = "set-role",
      mixinStandardHelpOptions = true,
      description = {
        "Makes an account an admin or a user, from its next request on.",
        "The last enabled administrator cannot be demoted."
      })
  static final class SetRole extends AccountChange {
    @Spec private CommandSpec spec;

    @Parameters(index = "1", paramLabel = "ROLE", description = "admin or user")
    private String role;

    @Override
    Action change() {
      Role next = role(spec, role);
      return route(
          "PUT",
          userPath(id, "/role"),
          Map.of("role", next.wire()),
          admin -> admin.setRole(Principal.OPERATOR, id, next));
    }
  }

  @Command(
      name = "reset-password",
      mixinStandardHelpOptions = true,
      description = {
        "With SMTP configured: mails the account a password-reset link (1 hour, once).",
        "Without: prints a one-time password (the reset token) and the web client's page that"
            + " takes it; with it the holder chooses a new password, once, within 1 hour. The"
            + " current password works until then; disable the account to stop it at once."
      })
  static final class ResetPassword implements Callable<Integer> {
    @ParentCommand private UsersCommand users;

    @Parameters(paramLabel = "ID", description = "the account's id")
    private String id;

    @Override
    public Integer call() throws Exception {
      JsonNode reset =
          users.act(
              route(
                  "POST",
                  userPath(id, "/reset-password"),
                  null,
                  admin ->
                      admin
                          .resetPassword(Principal.OPERATOR, id)
                          .thenApply(UsersCommand::resetAnswer)));
      PrintStream out = users.root.out;
      JsonNode user = reset.path("user");
      if (reset.path("token").isMissingNode()) {
        out.println(
            "mailed a reset link to "
                + user.path("id").asText()
                + " <"
                + user.path("email").asText()
                + ">");
      } else {
        out.println(
            "one-time password for "
                + user.path("id").asText()
                + " (once, until "
                + reset.path("expiresAt").asText()
                + "): "
                + reset.path("token").asText());
        out.println("choose the new password at " + reset.path("link").asText());
      }
      return ExitCodes.OK;
    }
  }

  /** A reset as the route answers it. */
  private static Map<String, Object> resetAnswer(AccountAdmin.PasswordReset reset) {
    if (reset.printed() == null) return Map.of("status", "reset-mailed", "user", reset.user());
    return Map.of(
        "status",
        "reset-issued",
        "user",
        reset.user(),
        "token",
        reset.printed().token(),
        "link",
        reset.printed().link(),
        "expiresAt",
        reset.printed().expiresAt().toString());
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = {
        "Deletes an account: its sign-ins and tokens end, its address is free again, its"
            + " watches, trust rules and other data are removed; its id stays taken.",
        "The last enabled administrator cannot be deleted."
      })
  static final class Delete implements Callable<Integer> {
    @ParentCommand private UsersCommand users;
    @Spec private CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "the account's id")
    private String id;

    @Option(
        names = "--run-history",
        paramLabel = "keep|erase",
        defaultValue = "keep",
        description =
            "keep (the default) the deleted watches' runs in the journal, or erase them for good")
    private String runHistory;

    @Override
    public Integer call() throws Exception {
      if (!runHistory.equals("keep") && !runHistory.equals("erase"))
        throw new ParameterException(
            spec.commandLine(),
            "--run-history must be 'keep' or 'erase', not '" + runHistory + "'");
      boolean erase = runHistory.equals("erase");
      users.act(
          route(
              "DELETE",
              userPath(id, "?runHistory=" + runHistory),
              null,
              admin -> admin.delete(Principal.OPERATOR, id, erase)));
      users.root.out.println(
          "deleted " + id + " (run history " + (erase ? "erased" : "kept") + ")");
      return ExitCodes.OK;
    }
  }

  /** The first line of standard input, or a hidden prompt on a terminal. */
  private static String readPassword() throws java.io.IOException {
    Console console = System.console();
    if (console != null) {
      char[] typed = console.readPassword("password: ");
      return typed == null ? "" : new String(typed);
    }
    String line =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    return line == null ? "" : line;
  }
}
