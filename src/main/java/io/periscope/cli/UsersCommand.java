package io.periscope.cli;

import com.typesafe.config.Config;
import io.periscope.Periscope;
import io.periscope.auth.Accounts;
import io.periscope.config.Settings;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.runtime.LocalEntities;
import io.periscope.runtime.Node;
import io.periscope.runtime.ServiceFile;
import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code users}: the accounts. {@code users create --id ID --email EMAIL --role admin|user},
 * password on the first line of standard input. When a service runs on this data directory the
 * account is created through it (POST /admin/users with a short-lived admin token), so its entities
 * keep one writer; otherwise this process holds the data-directory lock and writes the journal
 * itself.
 */
@Command(
    name = "users",
    mixinStandardHelpOptions = true,
    description = "Manages the accounts.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = UsersCommand.Create.class)
final class UsersCommand implements Callable<Integer> {
  @ParentCommand Root root;
  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "users needs a command");
  }

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
      return create(id, email, role, users.root.quietConfig(), users.root.out, users.root.err);
    }
  }

  private static int create(
      String id, String email, String role, Config config, PrintStream out, PrintStream err)
      throws Exception {
    String password = readPassword();
    Accounts.NewAccount request;
    try {
      request = Accounts.validate(id, email, role, password);
    } catch (ValidationException e) {
      err.println(
          "error: "
              + e.issues().stream()
                  .map(i -> i.path().get(0) + " " + i.message())
                  .collect(Collectors.joining("; ")));
      return ExitCodes.FAILED;
    }
    Settings settings = Settings.from(config);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    return SingleWriter.act(
        settings,
        http,
        service -> createThroughService(service, request, settings, http, out, err),
        () -> createLocally(request, config, settings, out, err));
  }

  private static int createThroughService(
      ServiceFile service,
      Accounts.NewAccount request,
      Settings settings,
      HttpClient http,
      PrintStream out,
      PrintStream err)
      throws Exception {
    String token = SingleWriter.adminToken(SingleWriter.tokens(settings));
    byte[] body =
        Json.bytes(
            Map.of(
                "id",
                request.id(),
                "email",
                request.email(),
                "role",
                request.role().wire(),
                "password",
                request.password()));
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(service.base().resolve("/admin/users"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() == 201) {
      out.println(
          "created " + request.role().wire() + " " + request.id() + " <" + request.email() + ">");
      return ExitCodes.OK;
    }
    String reason =
        Json.MAPPER.readTree(response.body()).path("error").asText("HTTP " + response.statusCode());
    err.println("error: " + reason);
    return ExitCodes.FAILED;
  }

  private static int createLocally(
      Accounts.NewAccount request,
      Config config,
      Settings settings,
      PrintStream out,
      PrintStream err)
      throws Exception {
    ActorSystem<Void> system = Node.startLocal(config);
    try {
      Periscope app =
          new Periscope(system, config, new LocalEntities(system), SingleWriter.tokens(settings));
      app.accounts().create(request).toCompletableFuture().get(60, TimeUnit.SECONDS);
      out.println(
          "created " + request.role().wire() + " " + request.id() + " <" + request.email() + ">");
      return ExitCodes.OK;
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof Accounts.Conflict c) {
        err.println("error: " + c.getMessage());
        return ExitCodes.FAILED;
      }
      throw e;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
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
