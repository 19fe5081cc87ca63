package io.periscope.llm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.Test;

public class JudgedTest {
  /**
   * Publication times of every shape a feed can give, and none: whole seconds, milli-, micro- and
   * nanoseconds, before 1970, year 0, past year 9999, the ends of {@link Instant}'s range.
   */
  private static final List<Instant> PUBLISHED =
      List.of(
          Instant.parse("2025-01-02T03:04:05Z"),
          Instant.parse("2024-05-06T05:08:09.120Z"),
          Instant.parse("2024-05-06T05:08:09.123456Z"),
          Instant.ofEpochSecond(1_700_000_000L, 1),
          Instant.EPOCH,
          Instant.ofEpochSecond(-1, 999_999_999),
          Instant.parse("0000-01-01T00:00:00Z"),
          Instant.parse("+10000-01-01T00:00:00Z"),
          Instant.MIN,
          Instant.MAX);

  /**
   * The items as the prompt lists them, their publication times written out as the pipeline writes
   * them (every third undated), and more of them than one prompt lists.
   */
  private static List<VerdictPrompt.Candidate> candidates(int count) {
    List<VerdictPrompt.Candidate> all = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Instant published = published(i);
      all.add(
          new VerdictPrompt.Candidate(
              i % 5 == 4 ? null : "https://news.example/" + i,
              i % 7 == 6 ? null : "Item " + i,
              published == null ? null : published.toString(),
              i % 2 == 0 ? "official" : null,
              "Text of item " + i + ". ".repeat(i * 60)));
    }
    return all;
  }

  private static Instant published(int i) {
    return i % 3 == 2 ? null : PUBLISHED.get(i % PUBLISHED.size());
  }

  @Test
  public void givesEachListedItemTheTimeItWasCollectedWithAsThePromptsTextParsedBackDid() {
    VerdictPrompt prompt = VerdictPrompt.build("Acme launches", candidates(30));
    int listed = prompt.judged().size();
    assertEquals(VerdictPrompt.MAX_ITEMS, listed);
    List<Judged.Origin> origins = new ArrayList<>();
    for (int i = 0; i < listed; i++)
      origins.add(new Judged.Origin("key-" + i, "rss:https://feed.example/" + i, published(i)));
    Set<String> cited = Set.of("https://news.example/1", "https://news.example/12");

    List<JudgedItem> items = Judged.listed(prompt, origins, cited);

    assertEquals(listed, items.size());
    for (int i = 0; i < listed; i++) {
      VerdictPrompt.Candidate c = prompt.judged().get(i);
      // what the list gave when it read an item's time back from the prompt's text
      JudgedItem fromText =
          new JudgedItem(
              "key-" + i,
              c.title(),
              c.url(),
              "rss:https://feed.example/" + i,
              c.trust(),
              c.published() == null ? null : Instant.parse(c.published()),
              Verdict.bounded(prompt.carried(i), Judged.EXCERPT_CHARS),
              c.url() != null && cited.contains(c.url()));
      assertEquals("item " + i, fromText, items.get(i));
    }
    assertNull(items.get(2).published());
    assertEquals(Instant.MIN, items.get(18).published());
    assertEquals(Instant.MAX, items.get(9).published());
    assertTrue(items.get(1).cited());
    assertFalse(items.get(4).cited());
    assertTrue(items.get(19).excerpt().length() <= Judged.EXCERPT_CHARS);
  }
}
