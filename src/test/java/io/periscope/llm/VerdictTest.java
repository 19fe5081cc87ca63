package io.periscope.llm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import java.util.List;
import org.junit.Test;

public class VerdictTest {
  private static final List<VerdictPrompt.Candidate> ITEMS =
      List.of(
          new VerdictPrompt.Candidate(
              "https://news.example/a", "Acme sets a date", null, "official", "text a"),
          new VerdictPrompt.Candidate("https://news.example/b", null, null, "community", "text b"));

  private static ObjectNode answer(String json) throws Exception {
    return (ObjectNode) Json.MAPPER.readTree(json);
  }

  private static ObjectNode good() throws Exception {
    return answer(
        "{\"reasoning\":\"Item 1 gives the"
            + " date.\",\"evidence\":[{\"url\":\"https://news.example/a\",\"quote\":\"launch on 3"
            + " May\"}],\"met\":true,\"confidence\":0.92,\"summary\":\"Acme launches on 3 May.\"}");
  }

  @Test
  public void readsAGoodAnswerAndTitlesItsEvidenceFromTheList() throws Exception {
    Verdict verdict = Verdict.parse(good(), ITEMS);

    assertTrue(verdict.met());
    assertEquals(0.92, verdict.confidence(), 0);
    assertEquals("Acme launches on 3 May.", verdict.summary());
    assertEquals("Item 1 gives the date.", verdict.reasoning());
    assertEquals(
        List.of(
            new Verdict.Evidence("https://news.example/a", "Acme sets a date", "launch on 3 May")),
        verdict.evidence());
  }

  @Test
  public void dropsEvidenceCitingUrlsThatWereNotListedAndRepeatedCitations() throws Exception {
    ObjectNode answer = good();
    answer
        .putArray("evidence")
        .add(
            Json.MAPPER
                .createObjectNode()
                .put("url", "https://invented.example/z")
                .put("quote", "made up"))
        .add(Json.MAPPER.createObjectNode().put("url", " https://news.example/b ").put("quote", ""))
        .add(
            Json.MAPPER
                .createObjectNode()
                .put("url", "https://news.example/b")
                .put("quote", "again"));

    Verdict verdict = Verdict.parse(answer, ITEMS);

    assertEquals(
        List.of(new Verdict.Evidence("https://news.example/b", null, null)), verdict.evidence());
  }

  @Test
  public void evidenceIsNeverALinkThatIsNotHttpOrHttps() throws Exception {
    List<VerdictPrompt.Candidate> items =
        List.of(new VerdictPrompt.Candidate("javascript:alert(1)", "Hostile", null, null, "text"));
    ObjectNode answer = good();
    answer
        .putArray("evidence")
        .add(
            Json.MAPPER
                .createObjectNode()
                .put("url", "javascript:alert(1)")
                .put("quote", "click me"));

    assertEquals(List.of(), Verdict.parse(answer, items).evidence());
  }

  @Test
  public void aMissingFieldIsInvalid() throws Exception {
    ObjectNode answer = good();
    answer.remove("summary");

    InvalidModelOutput e =
        assertThrows(InvalidModelOutput.class, () -> Verdict.parse(answer, ITEMS));
    assertEquals(List.of("summary must be a string"), e.problems());
  }

  @Test
  public void confidenceOutsideZeroToOneIsInvalid() throws Exception {
    for (double confidence : new double[] {1.5, -0.1}) {
      ObjectNode answer = good().put("confidence", confidence);
      InvalidModelOutput e =
          assertThrows(InvalidModelOutput.class, () -> Verdict.parse(answer, ITEMS));
      assertEquals(List.of("confidence must be between 0 and 1"), e.problems());
    }
  }

  @Test
  public void wrongTypesAreInvalidAndEveryProblemIsNamed() throws Exception {
    ObjectNode answer = good().put("met", "yes").put("confidence", "0.9");
    answer.putArray("evidence").add("https://news.example/a");

    InvalidModelOutput e =
        assertThrows(InvalidModelOutput.class, () -> Verdict.parse(answer, ITEMS));
    assertEquals(
        List.of(
            "met must be a boolean",
            "confidence must be a number",
            "evidence[0] must be an object with a string url and a string quote"),
        e.problems());
    assertFalse(e.getMessage().contains("yes"));
  }

  @Test
  public void anAnswerThatIsNotAnObjectIsInvalid() throws Exception {
    assertThrows(
        InvalidModelOutput.class, () -> Verdict.parse(Json.MAPPER.readTree("[true]"), ITEMS));
  }

  @Test
  public void longTextsAreBounded() throws Exception {
    ObjectNode answer = good().put("summary", "s".repeat(5_000));

    Verdict verdict = Verdict.parse(answer, ITEMS);

    assertEquals(Verdict.MAX_SUMMARY_CHARS, verdict.summary().length());
    assertTrue(verdict.summary().endsWith("…"));
  }

  @Test
  public void theBuiltPromptParsesAgainstTheItemsItListed() throws Exception {
    VerdictPrompt built = VerdictPrompt.build("c", ITEMS, 1, 100);
    ObjectNode answer = good();
    answer
        .putArray("evidence")
        .add(
            Json.MAPPER
                .createObjectNode()
                .put("url", "https://news.example/b")
                .put("quote", "left out of the prompt"));

    assertTrue(built.parse(answer).evidence().isEmpty());
    assertEquals("https://news.example/a", built.parse(good()).evidence().get(0).url());
  }
}
