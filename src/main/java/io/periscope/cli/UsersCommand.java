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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code users create --id ID --email EMAIL --role admin|user}, password on the first line of
 * standard input. When a service runs on this data directory the account is created through it
 * (POST /admin/users with a short-lived admin token), so its entities keep one writer; otherwise
 * this process holds the data-directory lock and writes the journal itself.
 */
final class UsersCommand {
  private UsersCommand() {}

  static int run(List<String> args, Config config, PrintStream out, PrintStream err)
      throws Exception {
    if (args.isEmpty() || !args.get(0).equals("create")) {
      throw new Args.UsageException("usage: users create --id ID --email EMAIL --role admin|user");
    }
    Args a = new Args(args.subList(1, args.size()), Set.of("--id", "--email", "--role"), Set.of());
    String password = readPassword();
    Accounts.NewAccount request;
    try {
      request =
          Accounts.validate(
              a.required("--id"), a.required("--email"), a.required("--role"), password);
    } catch (ValidationException e) {
      err.println(
          "error: "
              + e.issues().stream()
                  .map(i -> i.path().get(0) + " " + i.message())
                  .collect(Collectors.joining("; ")));
      return 1;
    }
    Settings settings = Settings.from(config);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    try {
      return SingleWriter.act(
          settings,
          http,
          service -> createThroughService(service, request, settings, http, out, err),
          () -> createLocally(request, config, settings, out, err));
    } catch (SingleWriter.Busy e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
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
      return 0;
    }
    String reason =
        Json.MAPPER.readTree(response.body()).path("error").asText("HTTP " + response.statusCode());
    err.println("error: " + reason);
    return 1;
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
      return 0;
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof Accounts.Conflict c) {
        err.println("error: " + c.getMessage());
        return 1;
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
