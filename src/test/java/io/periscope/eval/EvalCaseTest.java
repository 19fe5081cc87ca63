package io.periscope.eval;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;

import io.periscope.json.Json;
import io.periscope.llm.ModelUsage;
import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Reading a case file, and the rules of the scores that need no model. */
public class EvalCaseTest {
  private static List<String> problems(String line) {
    List<String> problems = new ArrayList<>();
    EvalCase.parse(line, problems);
    return problems;
  }

  private static String item(String key, String url) {
    return Json.text(Map.of("key", key, "url", url, "trust", "official"));
  }

  @Test
  public void aCaseNamesEachOfItsProblems() {
    assertEquals(
        List.of(
            "category must be a non-empty string",
            "items[0].url must be an http(s) URL",
            "items[1].key 'a' is used twice",
            "items[1].trust must be one of official, established, community, unverified",
            "expected.met must be true or false"),
        problems(
            """
            {"id": "x", "condition": "c", "items": [{"key": "a", "url": "ftp://f.example/1"}, \
            {"key": "a", "url": "https://f.example/2", "trust": "gospel"}], "expected": {"cited": []}}\
            """));
    assertEquals(
        List.of("a case that is met cites the items that show it (expected.cited)"),
        problems(
            "{\"id\": \"x\", \"category\": \"k\", \"condition\": \"c\", \"items\": ["
                + item("a", "https://f.example/1")
                + "], \"expected\": {\"met\": true, \"cited\": []}}"));
    assertEquals(
        List.of("a case that is not met cites nothing (expected.cited must be empty)"),
        problems(
            "{\"id\": \"x\", \"category\": \"k\", \"condition\": \"c\", \"items\": ["
                + item("a", "https://f.example/1")
                + "], \"expected\": {\"met\": false, \"cited\": [\"a\"]}}"));
    assertEquals(
        List.of("items[1].url is another item's too"),
        problems(
            "{\"id\": \"x\", \"category\": \"k\", \"condition\": \"c\", \"items\": ["
                + item("a", "https://f.example/1")
                + ","
                + item("b", "https://f.example/1")
                + "], \"expected\": {\"met\": false, \"cited\": []}}"));
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 21; i++) many.add(item("k" + i, "https://f.example/" + i));
    assertEquals(
        List.of("items: at most 20, the items a run judges"),
        problems(
            "{\"id\": \"x\", \"category\": \"k\", \"condition\": \"c\", \"items\": ["
                + String.join(",", many)
                + "], \"expected\": {\"met\": false, \"cited\": []}}"));
  }

  @Test
  public void aFileWithoutACaseIsRefused() {
    var e =
        assertThrows(
            EvalCase.Unreadable.class,
            () -> EvalCase.read(new BufferedReader(new StringReader("\n\n")), "empty.jsonl"));
    assertEquals("empty.jsonl: no case in it", e.getMessage());
  }

  @Test
  public void percentilesAreByNearestRank() {
    long[] ten = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    assertEquals(50L, (long) EvalReport.percentile(ten, 50));
    assertEquals(100L, (long) EvalReport.percentile(ten, 95));
    long[] seven = {1, 2, 3, 4, 5, 6, 7};
    assertEquals(4L, (long) EvalReport.percentile(seven, 50)); // rank ceil(3.5) = 4
    assertEquals(7L, (long) EvalReport.percentile(seven, 95)); // rank ceil(6.65) = 7
    assertEquals(3L, (long) EvalReport.percentile(new long[] {3}, 50));
    assertNull(EvalReport.percentile(new long[0], 95));
  }

  @Test
  public void citationsAreRightWhenTheyAreExactlyTheLabelledItemsInAnyOrder() {
    EvalCase labelled =
        new EvalCase(
            "x",
            "k",
            "c",
            List.of(
                new EvalCase.Item("a", null, "https://f.example/a", null, null, null, null),
                new EvalCase.Item("b", null, "https://f.example/b", null, null, null, null),
                new EvalCase.Item("c", null, "https://f.example/c", null, null, null, null)),
            true,
            List.of("a", "b"));
    assertEquals(
        List.of("b", "a"),
        labelled.keysOf(
            List.of("https://f.example/b", "https://f.example/a", "https://x.example/")));
    for (var cited :
        Map.of(List.of("b", "a"), true, List.of("a"), false, List.of("a", "b", "c"), false)
            .entrySet()) {
      var r =
          new Evaluation.Result(
              labelled, null, cited.getKey(), Duration.ZERO, ModelUsage.NONE, null);
      assertEquals(
          cited.getKey().toString(), cited.getValue(), EvalReport.citesTheLabelledItems(r));
    }
  }
}
