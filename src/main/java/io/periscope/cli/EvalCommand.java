package io.periscope.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.config.Settings;
import io.periscope.eval.EvalCase;
import io.periscope.eval.EvalReport;
import io.periscope.eval.Evaluation;
import io.periscope.json.Json;
import io.periscope.llm.ModelChoice;
import io.periscope.llm.ModelClient;
import io.periscope.llm.ModelClients;
import io.periscope.llm.ModelMeters;
import io.periscope.llm.ModelPrice;
import io.periscope.llm.PooledModel;
import io.periscope.net.UpstreamClients;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code eval [--cases FILE] [--model NAME] [--json]}: scores the configured model on labelled
 * cases, asking it as a run does (docs/evaluation.md). It reads the model settings of {@code serve}
 * (MODEL_PROVIDER, MODEL_BASE_URL, MODEL_NAME, MODEL_API_KEYS) and nothing else: no journal, no
 * running service, no key pool.
 */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = {
      "Judges labelled cases through the verdict prompt and model client the service uses, against"
          + " the model of MODEL_PROVIDER, MODEL_BASE_URL and MODEL_NAME with MODEL_API_KEYS, and"
          + " prints accuracy, precision, recall and F1 of the met decision, citation accuracy,"
          + " tokens per verdict, latency p50/p95 and cost (given prices).",
      "Exit 1 when no case was answered. Documented in docs/evaluation.md."
    })
final class EvalCommand implements Callable<Integer> {
  static final int MAX_CONCURRENCY = 64;

  @ParentCommand private Root root;
  @Spec private CommandSpec spec;

  @Option(
      names = "--cases",
      paramLabel = "FILE",
      description = "labelled cases, one JSON object a line (default: the set Periscope ships)")
  private Path cases;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      description = "the model to ask instead of MODEL_NAME (same provider and base URL)")
  private String model;

  @Option(names = "--json", description = "the report as one JSON object")
  private boolean json;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      defaultValue = "4",
      description = "cases asked at once, 1 to " + MAX_CONCURRENCY + " (default: ${DEFAULT-VALUE})")
  private int concurrency;

  @Option(
      names = "--price-in",
      paramLabel = "AMOUNT",
      description = "price per million input tokens, to count the cost (with --price-out)")
  private BigDecimal priceIn;

  @Option(
      names = "--price-cached-in",
      paramLabel = "AMOUNT",
      description = "price per million cached input tokens (default: --price-in)")
  private BigDecimal priceCachedIn;

  @Option(
      names = "--price-out",
      paramLabel = "AMOUNT",
      description = "price per million output tokens, to count the cost (with --price-in)")
  private BigDecimal priceOut;

  @Mixin private Progress.Choice progress;

  @Override
  public Integer call() throws Exception {
    ModelPrice price = price();
    if (concurrency < 1 || concurrency > MAX_CONCURRENCY)
      throw new ParameterException(
          spec.commandLine(), "--concurrency must be from 1 to " + MAX_CONCURRENCY);
    List<EvalCase> labelled = cases();
    // serve reads these through its configuration, which takes them from the environment as is
    Map<String, String> env = root.env();
    ModelChoice choice;
    List<String> keys;
    try {
      choice =
          ModelChoice.withDefaults(
              env.get("MODEL_PROVIDER"),
              env.get("MODEL_BASE_URL"),
              model != null ? model : env.get("MODEL_NAME"));
      keys = Settings.seededKeys("MODEL_API_KEYS", env.getOrDefault("MODEL_API_KEYS", ""));
    } catch (IllegalArgumentException e) {
      throw new ExitCodes.Failure(ExitCodes.CONFIG, e.getMessage());
    }
    if (keys.isEmpty())
      throw new ExitCodes.Failure(
          ExitCodes.CONFIG,
          "MODEL_API_KEYS is empty: eval asks the model with these keys (a running service's key"
              + " pool is not read)");
    // the client of a run: its timeouts, no redirects, priced as given
    ModelClient client =
        ModelClients.create(
            new ModelChoice(choice.provider(), choice.baseUrl(), choice.model(), price),
            UpstreamClients.keyed(UpstreamClients.trusted()));
    PooledModel asked =
        new PooledModel(
            () -> CompletableFuture.completedFuture(client),
            PooledModel.Keys.rotating(keys),
            new ModelMeters(new SimpleMeterRegistry()));

    Progress shown = progress.on(root.err);
    AtomicInteger judged = new AtomicInteger();
    List<Evaluation.Result> results =
        new Evaluation(asked, concurrency)
            .run(
                labelled,
                r ->
                    shown.show(
                        "judged " + judged.incrementAndGet() + " of " + labelled.size() + " cases"))
            .toCompletableFuture()
            .join();
    shown.clear();

    EvalReport report = new EvalReport(choice.provider() + ":" + choice.model(), results, price);
    if (json) root.out.println(Json.text(report.json()));
    else root.out.print(report.text());
    if (results.stream().noneMatch(Evaluation.Result::answered)) {
      root.err.println("error: no case was answered (their errors are in the report)");
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }

  /** The prices given, or null; both of --price-in and --price-out, or neither. */
  private ModelPrice price() {
    if (priceIn == null && priceOut == null && priceCachedIn == null) return null;
    if (priceIn == null || priceOut == null)
      throw new ParameterException(
          spec.commandLine(), "--price-in and --price-out go together (per million tokens)");
    for (BigDecimal amount : new BigDecimal[] {priceIn, priceCachedIn, priceOut}) {
      if (amount != null && amount.signum() < 0)
        throw new ParameterException(spec.commandLine(), "a price must not be negative");
    }
    return new ModelPrice(priceIn, priceCachedIn, priceOut);
  }

  private List<EvalCase> cases() throws IOException {
    try (BufferedReader lines =
        cases == null
            ? EvalCase.shipped()
            : Files.newBufferedReader(cases, StandardCharsets.UTF_8)) {
      return EvalCase.read(lines, cases == null ? "the shipped cases" : cases.toString());
    } catch (java.nio.file.NoSuchFileException e) {
      throw new ExitCodes.Failure(ExitCodes.FAILED, "no such file: " + cases);
    } catch (EvalCase.Unreadable e) {
      throw new ExitCodes.Failure(ExitCodes.FAILED, e.getMessage());
    }
  }
}
