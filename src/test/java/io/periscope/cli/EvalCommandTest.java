package io.periscope.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.FakeJudge;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import okhttp3.mockwebserver.MockResponse;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code periscope eval} against a loopback model whose verdicts the test decides, so every score
 * it prints is checked against one computed by hand.
 *
 * <p>Eight cases: c1, c2, c5 and c8 are met (category "a"), c3, c4, c6 and c7 are not ("b"). The
 * fake says met for c1, c2, c3 and c8 (c8 only on its second try, after an answer out of range),
 * not met for c4, c5 and c6 (c6 after 1.5 s), and refuses c7 (HTTP 400). So of the 7 answered: TP
 * c1 c2 c8, FP c3, FN c5, TN c4 c6. c2 cites one of its two labelled items; c1 and c8 cite theirs.
 * Every answer took 1,000 tokens in (400 cached) and 100 out: 8 calls, c8 two.
 */
public class EvalCommandTest {
  private static final String KEY_1 = "sk-eval-first-0000000001";
  private static final String KEY_2 = "sk-eval-second-000000002";
  private static final Set<String> MET = Set.of("c1", "c2", "c3", "c8");

  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private FakeJudge judge;
  private Path cases;

  private static String url(String id, String key) {
    return "https://news.example/" + id + "/" + key;
  }

  private static String caseLine(
      String id, String category, boolean met, List<String> cited, String... keys) {
    List<Map<String, Object>> items = new ArrayList<>();
    for (String key : keys) {
      items.add(
          Map.of(
              "key",
              key,
              "title",
              "Item " + key + " of " + id,
              "url",
              url(id, key),
              "source",
              "News",
              "trust",
              "established",
              "published",
              "2025-06-01T10:00:00Z",
              "text",
              "What item " + key + " says."));
    }
    return Json.text(
        Map.of(
            "id", id,
            "category", category,
            "condition", "cond-" + id,
            "items", items,
            "expected", Map.of("met", met, "cited", cited)));
  }

  /** What the fake answers: by the case its condition names. */
  private static MockResponse answer(FakeJudge.Question q) {
    String id = q.condition().substring("cond-".length());
    return switch (id) {
      case "c1" -> FakeJudge.verdict(true, List.of(url("c1", "a")), 1000, 400, 100);
      case "c2" -> FakeJudge.verdict(true, List.of(url("c2", "a")), 1000, 400, 100);
      case "c3" -> FakeJudge.verdict(true, List.of(url("c3", "x")), 1000, 400, 100);
      case "c6" ->
          FakeJudge.verdict(false, List.of(), 1000, 400, 100)
              .setBodyDelay(1500, TimeUnit.MILLISECONDS);
      case "c7" ->
          new MockResponse()
              .setResponseCode(400)
              .setHeader("Content-Type", "application/json")
              .setBody("{\"error\": {\"message\": \"this request is refused\"}}");
      case "c8" ->
          q.retry()
              ? FakeJudge.verdict(true, List.of(url("c8", "u")), 1000, 400, 100)
              : FakeJudge.answer(
                  "{\"reasoning\": \"r\", \"evidence\": [], \"met\": true, \"confidence\": 7,"
                      + " \"summary\": \"s\"}",
                  1000,
                  400,
                  100);
      default -> FakeJudge.verdict(false, List.of(), 1000, 400, 100);
    };
  }

  @Before
  public void start() throws Exception {
    judge = new FakeJudge(EvalCommandTest::answer);
    cases = folder.newFile("cases.jsonl").toPath();
    Files.write(
        cases,
        List.of(
            caseLine("c1", "a", true, List.of("a"), "a", "b"),
            caseLine("c2", "a", true, List.of("a", "b"), "a", "b"),
            caseLine("c3", "b", false, List.of(), "x"),
            "",
            caseLine("c4", "b", false, List.of(), "y"),
            caseLine("c5", "a", true, List.of("z"), "z"),
            caseLine("c6", "b", false, List.of(), "w"),
            caseLine("c7", "b", false, List.of(), "v"),
            caseLine("c8", "a", true, List.of("u"), "u")));
  }

  @After
  public void stop() throws Exception {
    judge.close();
  }

  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("MODEL_PROVIDER", "openai");
    env.put("MODEL_BASE_URL", judge.baseUrl());
    env.put("MODEL_NAME", "env-model");
    env.put("MODEL_API_KEYS", KEY_1 + "," + KEY_2);
    return env;
  }

  private int eval(Map<String, String> env, String... args) {
    List<String> argv = new ArrayList<>(List.of("eval"));
    argv.addAll(List.of(args));
    return Cli.run(
        argv.toArray(String[]::new),
        env,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static final String PRICES[] = {
    "--price-in", "2", "--price-cached-in", "1", "--price-out", "10"
  };

  private String[] args(String... more) {
    List<String> args = new ArrayList<>(List.of("--cases", cases.toString()));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  @Test
  public void printsTheScoresOfTheMetDecisionCitationsTokensLatencyAndCost() throws Exception {
    List<String> argv = new ArrayList<>(List.of(args("--model", "judge-model")));
    argv.addAll(List.of(PRICES));
    assertEquals(err(), 0, eval(env(), argv.toArray(String[]::new)));

    List<String> lines = out().lines().toList();
    assertTrue(out(), lines.get(0).matches("model      openai:judge-model, prompt [0-9a-f]{12}"));
    assertEquals("cases      8: 7 answered, 1 error", lines.get(1));
    // accuracy 5/7; precision 3/(3+1); recall 3/(3+1); F1 = 2·0.75·0.75/1.5
    assertEquals(
        "met        accuracy 0.714  precision 0.750  recall 0.750  F1 0.750"
            + "  (TP 3, FP 1, FN 1, TN 2)",
        lines.get(2));
    assertEquals(
        "citations  0.667 (2 of 3 true positives cite exactly the labelled items)", lines.get(3));
    // 8,000 in, 3,200 cached, 800 out over 8 calls; per verdict over the 7 answered: 8,000/7, 800/7
    assertEquals(
        "tokens     per verdict 1142.9 in, 114.3 out; in all 8000 in (3200 cached), 800 out in 8"
            + " calls",
        lines.get(4));
    // a call: (600 × 2 + 400 × 1 + 100 × 10) / 10^6 = 0.0026; 8 calls 0.0208; per verdict /7
    assertEquals(
        "cost       per verdict 0.00297143, in all 0.0208 (per million tokens: input 2, cached"
            + " input 1, output 10)",
        lines.get(6));
    String latency = lines.get(5);
    assertTrue(latency, latency.matches("latency    p50 \\d+ ms, p95 \\d+ ms"));
    long p50 = Long.parseLong(latency.replaceAll(".*p50 (\\d+) ms.*", "$1"));
    long p95 = Long.parseLong(latency.replaceAll(".*p95 (\\d+) ms", "$1"));
    assertTrue("p95 (rank 7 of 7) is the slow case: " + latency, p95 >= 1500);
    assertTrue("p50 (rank 4 of 7) is a fast one: " + latency, p50 < 1500);
    assertEquals("category           cases answered correct accuracy", lines.get(7));
    assertEquals("  a                    4        4       3    0.750", lines.get(8));
    assertEquals("  b                    4        3       2    0.667", lines.get(9));
    assertEquals("errors", lines.get(10));
    assertTrue(lines.get(11), lines.get(11).startsWith("  c7: "));
    assertEquals(12, lines.size());

    // the same prompt and client as a run: the model asked, the keys in turn, a second try
    List<FakeJudge.Question> asked = judge.questions();
    assertEquals("8 cases, c8 twice", 9, asked.size());
    assertTrue(asked.stream().allMatch(q -> q.model().equals("judge-model")));
    assertEquals(
        Set.of(KEY_1, KEY_2),
        asked.stream().map(FakeJudge.Question::key).collect(Collectors.toSet()));
    assertEquals(
        List.of("c8"),
        asked.stream()
            .filter(FakeJudge.Question::retry)
            .map(q -> q.condition().substring(5))
            .toList());
    assertFalse("no key is printed", (out() + err()).contains("sk-eval"));
  }

  @Test
  public void theJsonReportHasTheSameScoresAndEachCasesResult() throws Exception {
    List<String> argv = new ArrayList<>(List.of(args("--json", "--concurrency", "2")));
    argv.addAll(List.of(PRICES));
    assertEquals(err(), 0, eval(env(), argv.toArray(String[]::new)));

    JsonNode report = Json.MAPPER.readTree(out());
    assertEquals("openai:env-model", report.get("model").asText());
    assertEquals(8, report.get("cases").asInt());
    assertEquals(7, report.get("answered").asInt());
    assertEquals(1, report.get("errors").asInt());
    assertEquals(
        Json.MAPPER.readTree(
            """
            {"accuracy": 0.7143, "precision": 0.75, "recall": 0.75, "f1": 0.75,
             "truePositives": 3, "falsePositives": 1, "falseNegatives": 1, "trueNegatives": 2}\
            """),
        report.get("met"));
    assertEquals(
        Json.MAPPER.readTree("{\"accuracy\": 0.6667, \"checked\": 3, \"right\": 2}"),
        report.get("citations"));
    assertEquals(
        Json.MAPPER.readTree(
            """
            {"calls": 8, "input": 8000, "cachedInput": 3200, "output": 800,
             "inputPerVerdict": 1142.8571, "outputPerVerdict": 114.2857}\
            """),
        report.get("tokens"));
    assertEquals("0.0208", report.at("/cost/total").decimalValue().toPlainString());
    assertEquals("0.00297143", report.at("/cost/perVerdict").decimalValue().toPlainString());
    assertEquals(
        Json.MAPPER.readTree(
            "{\"inputPerMillion\": 2, \"cachedInputPerMillion\": 1, \"outputPerMillion\": 10}"),
        report.at("/cost/pricesPerMillion"));
    assertTrue(report.at("/latencyMs/p95").asLong() >= 1500);
    assertEquals(
        Json.MAPPER.readTree(
            """
            {"a": {"cases": 4, "answered": 4, "correct": 3, "accuracy": 0.75},
             "b": {"cases": 4, "answered": 3, "correct": 2, "accuracy": 0.6667}}\
            """),
        report.get("categories"));

    JsonNode results = report.get("results");
    assertEquals(
        List.of("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"), results.findValuesAsText("id"));
    for (JsonNode r : results) {
      String id = r.get("id").asText();
      if (id.equals("c7")) {
        assertTrue(r.get("met").isNull());
        assertTrue(r.get("correct").isNull());
        assertFalse(r.get("error").asText().isBlank());
        assertEquals(0, r.get("inputTokens").asInt());
      } else {
        assertEquals(id, MET.contains(id), r.get("met").asBoolean());
        assertTrue(id, r.get("error").isNull());
        assertEquals(id, id.equals("c8") ? 2000 : 1000, r.get("inputTokens").asInt());
      }
    }
    assertEquals(Json.MAPPER.readTree("[\"a\"]"), results.get(1).get("cited"));
    assertEquals(Json.MAPPER.readTree("[\"a\", \"b\"]"), results.get(1).get("expectedCited"));
  }

  @Test
  public void withoutPricesTheCostIsUnknownNotZero() throws Exception {
    assertEquals(err(), 0, eval(env(), args("--json")));
    JsonNode report = Json.MAPPER.readTree(out());
    assertTrue(report.has("cost"));
    assertTrue(report.get("cost").isNull());
    assertEquals(8000, report.at("/tokens/input").asInt());

    out.reset();
    assertEquals(err(), 0, eval(env(), args()));
    assertTrue(
        out(),
        out()
            .contains(
                "\ncost       unknown: no price given (--price-in and --price-out, per million"
                    + " tokens)\n"));
  }

  @Test
  public void whenEveryCallFailsEachCaseIsAnErrorAndTheCommandExits1() throws Exception {
    judge.close();
    judge =
        new FakeJudge(
            q -> new MockResponse().setResponseCode(401).setBody("{\"error\": \"bad key\"}"));
    assertEquals(1, eval(env(), args("--json")));
    JsonNode report = Json.MAPPER.readTree(out());
    assertEquals(8, report.get("errors").asInt());
    assertEquals(0, report.get("answered").asInt());
    assertTrue(report.at("/met/accuracy").isNull());
    assertTrue(report.at("/met/precision").isNull());
    assertTrue(report.at("/latencyMs/p50").isNull());
    assertEquals(
        8, report.get("results").findValues("error").stream().filter(e -> !e.isNull()).count());
    assertTrue(err(), err().contains("error: no case was answered"));
    assertFalse((out() + err()).contains("sk-eval"));
  }

  @Test
  public void aBadCaseFileNamesItsLinesAndAsksNothing() throws Exception {
    Path bad = folder.newFile("bad.jsonl").toPath();
    Files.write(
        bad,
        List.of(
            caseLine("c1", "a", true, List.of("a"), "a"),
            "{not json",
            caseLine("c2", "a", true, List.of("q"), "a"),
            caseLine("c1", "a", false, List.of(), "a")));
    assertEquals(1, eval(env(), "--cases", bad.toString()));
    assertEquals(
        "error: "
            + bad
            + ": line 2: not JSON; line 3: expected.cited names 'q', no item's key; line 4: id"
            + " 'c1' is used twice\n",
        err());
    assertEquals(1, eval(env(), "--cases", folder.getRoot() + "/nothing-here.jsonl"));
    assertTrue(judge.questions().isEmpty());
  }

  @Test
  public void aMissingKeyOrAnIncompletePriceStopsBeforeAnyQuestion() throws Exception {
    Map<String, String> keyless = env();
    keyless.remove("MODEL_API_KEYS");
    assertEquals(4, eval(keyless, args()));
    assertTrue(err(), err().startsWith("error: MODEL_API_KEYS is empty"));

    err.reset();
    assertEquals(2, eval(env(), args("--price-in", "0.15")));
    assertTrue(err(), err().startsWith("error: --price-in and --price-out go together"));
    err.reset();
    assertEquals(2, eval(env(), args("--concurrency", "0")));
    assertTrue(judge.questions().isEmpty());
  }
}
