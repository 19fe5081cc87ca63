package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.periscope.Periscope;
import io.periscope.auth.Role;
import io.periscope.auth.Tokens;
import io.periscope.config.Settings;
import io.periscope.entity.Failures;
import io.periscope.json.Json;
import io.periscope.runtime.ServiceFile;
import io.periscope.source.Opml;
import io.periscope.transfer.OpmlWatches;
import io.periscope.transfer.Transfers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code export} and {@code import}: accounts' watches, trust rules and e-mail channel addresses as
 * one document (docs/export-import.md), for operators: one account or all. Through the service
 * running on this data directory (GET /export, POST /import with a short-lived token of each
 * account), or, when none runs, on the journal itself.
 */
final class TransferCommands {
  private static final Duration PATIENCE = Duration.ofMinutes(5);

  private TransferCommands() {}

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Writes accounts' watches, trust rules and e-mail channel addresses as one JSON document:"
            + " every account's, or one's (--owner).",
        "Accounts are named, not exported: create them on the target (users create) before"
            + " importing."
      })
  static final class Export implements Callable<Integer> {
    @ParentCommand private Root root;

    @Option(names = "--owner", paramLabel = "ID", description = "only this account")
    private String accountId;

    @Option(
        names = "--sealed-credentials",
        description =
            "the channels' credentials sealed with ENCRYPTION_KEY (importable only where the same"
                + " key is configured); without it they are masked")
    private boolean sealedCredentials;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "FILE",
        description = "write to FILE (default: standard output)")
    private Path output;

    @Override
    public Integer call() throws Exception {
      Config config = root.quietConfig();
      Settings settings = Settings.from(config);
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
      JsonNode document =
          SingleWriter.act(
              settings,
              http,
              service ->
                  exportThroughService(service, settings, http, accountId, sealedCredentials),
              () ->
                  SingleWriter.onJournal(
                      config, settings, app -> exportLocally(app, accountId, sealedCredentials)));
      String text = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(document);
      if (output == null) root.out.println(text);
      else Files.writeString(output, text + "\n");
      root.err.println("exported " + document.get("accounts").size() + " account(s)");
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Imports an export document: each account's watches, trust rules and e-mail channel"
            + " addresses into the account of the same id here (or only --owner's).",
        "Per account all watches or none; prints one line per account. Exit 1 when an account"
            + " is missing here or was refused.",
        "With --opml, FILE is a feed reader's OPML export, imported into --owner's account as"
            + " disabled watches, one per folder (docs/export-import.md)."
      })
  static final class Import implements Callable<Integer> {
    @ParentCommand private Root root;

    @Parameters(paramLabel = "FILE", description = "the export document ('-': standard input)")
    private String file;

    @Option(names = "--owner", paramLabel = "ID", description = "only this account")
    private String accountId;

    @Option(
        names = "--opml",
        description = "FILE is OPML: its feeds become --owner's disabled watches, one per folder")
    private boolean opml;

    @Override
    public Integer call() throws Exception {
      byte[] text = file.equals("-") ? System.in.readAllBytes() : Files.readAllBytes(Path.of(file));
      List<JsonNode> accounts =
          opml ? new ArrayList<>(List.of(fromOpml(text))) : fromDocument(text);
      if (accountId != null) accounts.removeIf(a -> !accountId.equals(a.path("id").asText()));
      Config config = root.quietConfig();
      Settings settings = Settings.from(config);
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
      List<String> lines =
          SingleWriter.act(
              settings,
              http,
              service -> importThroughService(service, settings, http, accounts),
              () -> SingleWriter.onJournal(config, settings, app -> importLocally(app, accounts)));
      lines.forEach(root.out::println);
      return lines.stream().allMatch(l -> l.contains(" imported"))
          ? ExitCodes.OK
          : ExitCodes.FAILED;
    }

    private List<JsonNode> fromDocument(byte[] text) throws Exception {
      try {
        return new ArrayList<>(Transfers.accounts(Json.MAPPER.readTree(text)));
      } catch (io.periscope.json.ValidationException e) {
        throw new ExitCodes.Failure(ExitCodes.FAILED, file + " " + e.issues().get(0).message());
      }
    }

    private JsonNode fromOpml(byte[] text) {
      if (accountId == null)
        throw new ExitCodes.Failure(ExitCodes.USAGE, "--opml needs --owner: whose watches");
      try {
        Opml.Listed listed = Opml.read(text, null);
        if (listed.cut() || !listed.skipped().isEmpty())
          root.err.println(
              file
                  + ": "
                  + listed.skipped().size()
                  + " outline(s) left out"
                  + (listed.cut() ? ", and the file was cut at its bounds" : ""));
        return OpmlWatches.account(accountId, listed);
      } catch (Opml.NotOpml e) {
        throw new ExitCodes.Failure(ExitCodes.FAILED, file + ": " + e.getMessage());
      }
    }
  }

  // ---- through the running service

  private static JsonNode exportThroughService(
      ServiceFile service,
      Settings settings,
      HttpClient http,
      String accountId,
      boolean sealedCredentials)
      throws Exception {
    Tokens tokens = SingleWriter.tokens(settings);
    List<String> accountIds = new ArrayList<>();
    if (accountId != null) accountIds.add(accountId);
    else
      send(http, get(service.base().resolve("/admin/users"), SingleWriter.adminToken(tokens)))
          .path("users")
          .forEach(u -> accountIds.add(u.path("id").asText()));
    ArrayNode accounts = Json.MAPPER.createArrayNode();
    for (String o : accountIds)
      accounts.add(
          send(
                  http,
                  get(
                      service
                          .base()
                          .resolve(sealedCredentials ? "/export?credentials=sealed" : "/export"),
                      token(tokens, o)))
              .get("accounts")
              .get(0));
    return document(accounts);
  }

  private static List<String> importThroughService(
      ServiceFile service, Settings settings, HttpClient http, List<JsonNode> accounts)
      throws Exception {
    Tokens tokens = SingleWriter.tokens(settings);
    // an owner's token is honoured without an account (the command line's): look first, so
    // nothing is imported into an account that does not exist
    Set<String> here = new HashSet<>();
    SingleWriter.asOperator(service, settings, http, "GET", "/admin/users", null)
        .path("users")
        .forEach(u -> here.add(u.path("id").asText()));
    List<String> lines = new ArrayList<>();
    for (JsonNode account : accounts) {
      String id = account.path("id").asText();
      if (!here.contains(id)) {
        lines.add(id + " refused: " + noAccount(id));
        continue;
      }
      ArrayNode one = Json.MAPPER.createArrayNode().add(account);
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(service.base().resolve("/import"))
                  .timeout(PATIENCE)
                  .header("Authorization", "Bearer " + token(tokens, id))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(Json.text(document(one))))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode body = Json.MAPPER.readTree(answer.body().isBlank() ? "{}" : answer.body());
      lines.add(
          answer.statusCode() == 200
              ? line(id, body)
              : id
                  + " refused: "
                  + body.path("error").asText("HTTP " + answer.statusCode())
                  + problems(body.path("report")));
    }
    return lines;
  }

  // ---- on the journal

  private static JsonNode exportLocally(Periscope app, String accountId, boolean sealedCredentials)
      throws Exception {
    List<String> accountIds =
        accountId != null
            ? List.of(accountId)
            : await(app.accounts().list()).stream().map(a -> a.id()).toList();
    ArrayNode accounts = Json.MAPPER.createArrayNode();
    for (String o : accountIds)
      accounts.add(Json.MAPPER.valueToTree(await(app.transfers().account(o, sealedCredentials))));
    return document(accounts);
  }

  private static List<String> importLocally(Periscope app, List<JsonNode> accounts)
      throws Exception {
    List<String> lines = new ArrayList<>();
    for (JsonNode account : accounts) {
      String id = account.path("id").asText();
      Role role;
      try {
        role =
            Role.parse(
                    await(app.accounts().list()).stream()
                        .filter(a -> a.id().equals(id))
                        .findFirst()
                        .orElseThrow(() -> new IllegalStateException(noAccount(id)))
                        .role())
                .orElseThrow();
        lines.add(
            line(
                id, Json.MAPPER.valueToTree(await(app.transfers().importInto(id, role, account)))));
      } catch (Exception e) {
        Throwable cause = Failures.unwrap(e);
        lines.add(
            id
                + " refused: "
                + cause.getMessage()
                + (cause instanceof Transfers.Refused r
                    ? problems(Json.MAPPER.valueToTree(r.report()))
                    : ""));
      }
    }
    return lines;
  }

  // ---- the lines and the document

  private static String noAccount(String id) {
    return "no account " + id + " here";
  }

  /** {@code <id> imported: created N, unchanged N, trust rules N}. */
  private static String line(String id, JsonNode report) {
    int created = 0;
    int unchanged = 0;
    for (JsonNode w : report.path("watches")) {
      if (w.path("status").asText().equals("created")) created++;
      else unchanged++;
    }
    return id
        + " imported: created "
        + created
        + ", unchanged "
        + unchanged
        + ", trust rules "
        + report.path("trustRules").asInt();
  }

  private static String problems(JsonNode report) {
    StringBuilder out = new StringBuilder();
    for (JsonNode w : report.path("watches"))
      if (!w.path("problem").isMissingNode() && !w.path("problem").isNull())
        out.append("; ")
            .append(w.path("id").asText())
            .append(": ")
            .append(w.path("problem").asText());
    return out.toString();
  }

  private static ObjectNode document(ArrayNode accounts) {
    ObjectNode document = Json.MAPPER.createObjectNode();
    document.put("format", Transfers.FORMAT);
    document.put("version", Transfers.VERSION);
    document.put("exportedAt", Instant.now().toString());
    document.set("accounts", accounts);
    return document;
  }

  private static String token(Tokens tokens, String accountId) {
    return tokens.issueOperator(accountId, Role.USER, Instant.now(), PATIENCE);
  }

  private static HttpRequest get(URI uri, String token) {
    return HttpRequest.newBuilder(uri)
        .timeout(PATIENCE)
        .header("Authorization", "Bearer " + token)
        .GET()
        .build();
  }

  private static JsonNode send(HttpClient http, HttpRequest request) throws Exception {
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    JsonNode body = Json.MAPPER.readTree(r.body().isBlank() ? "{}" : r.body());
    if (r.statusCode() != 200)
      throw new ExitCodes.Failure(
          ExitCodes.FAILED, body.path("error").asText("HTTP " + r.statusCode()));
    return body;
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
  }
}
