package io.periscope.eval;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.periscope.llm.ModelMeters;
import io.periscope.llm.OpenAiCompatibleClient;
import io.periscope.llm.PooledModel;
import io.periscope.llm.VerdictPrompt;
import io.periscope.testing.FakeJudge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The labelled set Periscope ships: it reads, it holds what docs/evaluation.md says it holds, and
 * it scores as it must against judges whose answers are known.
 */
public class ShippedCasesTest {
  private static List<EvalCase> cases;

  @BeforeClass
  public static void read() throws Exception {
    try (var lines = EvalCase.shipped()) {
      cases = EvalCase.read(lines, "the shipped cases");
    }
  }

  @Test
  public void atLeastAHundredCasesAndTheCountsTheDocumentGives() throws Exception {
    assertTrue(cases.size() + " cases", cases.size() >= 100);
    Map<String, int[]> counted = new LinkedHashMap<>();
    for (EvalCase c : cases) {
      int[] n = counted.computeIfAbsent(c.category(), k -> new int[3]);
      n[0]++;
      n[c.expectedMet() ? 1 : 2]++;
    }
    // | `category` | cases | met | not met | ...
    Matcher row =
        Pattern.compile("^\\| `([a-z-]+)` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|", Pattern.MULTILINE)
            .matcher(Files.readString(Path.of("docs/evaluation.md")));
    Map<String, int[]> documented = new LinkedHashMap<>();
    while (row.find()) {
      documented.put(
          row.group(1),
          new int[] {
            Integer.parseInt(row.group(2)),
            Integer.parseInt(row.group(3)),
            Integer.parseInt(row.group(4))
          });
    }
    assertEquals(counted.keySet(), documented.keySet());
    counted.forEach(
        (category, n) ->
            assertEquals(
                category + ": cases, met, not met",
                List.of(n[0], n[1], n[2]),
                List.of(
                    documented.get(category)[0],
                    documented.get(category)[1],
                    documented.get(category)[2])));
    Matcher total =
        Pattern.compile("ships (\\d+) cases")
            .matcher(Files.readString(Path.of("docs/evaluation.md")));
    assertTrue(total.find());
    assertEquals(cases.size(), Integer.parseInt(total.group(1)));
  }

  @Test
  public void everyCaseIsItsOwnQuestionWithinTheBoundsOfARun() {
    Map<String, String> prompts = new HashMap<>();
    for (EvalCase c : cases) {
      VerdictPrompt prompt = VerdictPrompt.build(c.condition(), c.candidates());
      assertEquals(c.id() + " is judged whole", false, prompt.trimming().trimmed());
      String other = prompts.put(prompt.prompt().user(), c.id());
      assertEquals(c.id() + " asks what another case asks", null, other);
    }
  }

  /** The shipped cases judged by a fake that answers {@code answer} for each case. */
  private static EvalReport judgedBy(Function<EvalCase, MockResponse> answer) throws Exception {
    Map<String, EvalCase> byPrompt = new HashMap<>();
    for (EvalCase c : cases)
      byPrompt.put(VerdictPrompt.build(c.condition(), c.candidates()).prompt().user(), c);
    try (FakeJudge judge = new FakeJudge(q -> answer.apply(byPrompt.get(q.prompt())))) {
      var client = new OpenAiCompatibleClient(judge.baseUrl(), "fake", new OkHttpClient());
      PooledModel model =
          new PooledModel(
              () -> CompletableFuture.completedFuture(client),
              PooledModel.Keys.rotating(List.of("sk-fake")),
              new ModelMeters(new SimpleMeterRegistry()));
      List<Evaluation.Result> results =
          new Evaluation(model, 8)
              .run(cases, r -> {})
              .toCompletableFuture()
              .get(60, TimeUnit.SECONDS);
      return new EvalReport("openai:fake", results, null);
    }
  }

  private static List<String> urlsOf(EvalCase c, List<String> keys) {
    return c.items().stream().filter(i -> keys.contains(i.key())).map(EvalCase.Item::url).toList();
  }

  @Test
  public void aJudgeThatAnswersTheLabelsScoresOneOnEverything() throws Exception {
    EvalReport report =
        judgedBy(c -> FakeJudge.verdict(c.expectedMet(), urlsOf(c, c.expectedCited()), 900, 0, 80));
    assertEquals(cases.size(), report.json().get("answered").asInt());
    assertEquals(1.0, report.accuracy(), 0);
    assertEquals(1.0, report.precision(), 0);
    assertEquals(1.0, report.recall(), 0);
    assertEquals(1.0, report.f1(), 0);
    assertEquals(1.0, report.citationAccuracy(), 0);
  }

  @Test
  public void aJudgeThatAlwaysSaysMetAndCitesNothingScoresTheShareOfMetCases() throws Exception {
    long met = cases.stream().filter(EvalCase::expectedMet).count();
    EvalReport report = judgedBy(c -> FakeJudge.verdict(true, List.of(), 900, 0, 80));
    assertEquals((double) met / cases.size(), report.accuracy(), 1e-9);
    assertEquals((double) met / cases.size(), report.precision(), 1e-9);
    assertEquals(1.0, report.recall(), 0);
    assertEquals(0.0, report.citationAccuracy(), 0);
    assertEquals(met, report.json().at("/met/truePositives").asLong());
    assertEquals(cases.size() - met, report.json().at("/met/falsePositives").asLong());
  }
}
