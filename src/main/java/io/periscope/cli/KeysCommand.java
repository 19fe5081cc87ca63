package io.periscope.cli;

import com.typesafe.config.Config;
import io.periscope.config.Settings;
import io.periscope.json.Json;
import io.periscope.keys.Reencryption;
import io.periscope.runtime.ServiceFile;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code keys re-encrypt}: seals every stored key (the key pools', the generated VAPID private key,
 * the owners' webhook secrets) under the first key of ENCRYPTION_KEY, through the service running
 * on this data directory (POST /admin/encryption/re-encrypt with a short-lived admin token) or,
 * when none runs, on the journal itself. Prints one line; exits 1 when a key could not be read by
 * any configured key (it is then dead, and the operator alerted).
 */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description = "Manages the stored keys.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = KeysCommand.Reencrypt.class)
final class KeysCommand implements Callable<Integer> {
  private static final Duration PATIENCE = Duration.ofMinutes(5);

  @ParentCommand private Root root;
  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "keys needs a command: re-encrypt");
  }

  @Command(
      name = "re-encrypt",
      mixinStandardHelpOptions = true,
      description = {
        "Seals every stored key (both key pools, the generated VAPID private key, webhook secrets)"
            + " under the first"
            + " ENCRYPTION_KEY, through the service running on this DATA_DIR or on the journal"
            + " itself.",
        "Prints 're-encrypted N, already current N, undecryptable N'; exit 1 when a key could not"
            + " be read by any configured key (it is then dead)."
      })
  static final class Reencrypt implements Callable<Integer> {
    @ParentCommand private KeysCommand keys;

    @Override
    public Integer call() throws Exception {
      return reencrypt(keys.root.quietConfig(), keys.root.out);
    }
  }

  private static int reencrypt(Config config, PrintStream out) throws Exception {
    Settings settings = Settings.from(config);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    Reencryption.Result result =
        SingleWriter.act(
            settings,
            http,
            service -> throughService(service, settings, http),
            () -> locally(config, settings));
    out.println(
        "re-encrypted "
            + result.reencrypted()
            + ", already current "
            + result.current()
            + ", undecryptable "
            + result.undecryptable());
    return result.undecryptable() == 0 ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private static Reencryption.Result throughService(
      ServiceFile service, Settings settings, HttpClient http) throws Exception {
    return Json.MAPPER.treeToValue(
        SingleWriter.asOperator(
            service, settings, http, "POST", "/admin/encryption/re-encrypt", null),
        Reencryption.Result.class);
  }

  private static Reencryption.Result locally(Config config, Settings settings) throws Exception {
    return SingleWriter.onJournal(
        config,
        settings,
        app -> app.reencrypt().toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
  }
}
