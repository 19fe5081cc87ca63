package io.periscope.source;

import static io.periscope.testing.OpmlFiles.file;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;

/** OPML files made for each case, hostile ones included, read as a feed is: bounded. */
public class OpmlTest {
  private static Opml.Listed read(String text) throws Opml.NotOpml {
    return Opml.read(text.getBytes(StandardCharsets.UTF_8), "text/x-opml");
  }

  @Test
  public void aReadersExportListsItsFeedsWithTheirFolders() throws Exception {
    Opml.Listed listed = Opml.read(file("reader-export.opml"), "text/x-opml");
    assertEquals("Miniflux", listed.title());
    assertEquals(
        List.of(
            new Opml.Feed("Acme news", "https://acme.example/feed.xml", "Space"),
            new Opml.Feed("Orbit weekly", "https://orbit.example/atom", "Space"),
            new Opml.Feed("Agency & notices", "https://agency.example/rss", "Space / Agencies"),
            new Opml.Feed("Unfiled blog", "https://blog.example/index.xml", null)),
        listed.feeds());
    assertEquals(List.of(), listed.skipped());
    assertFalse(listed.cut());
  }

  @Test
  public void outlinesThatCannotBeSourcesAreListedAsSkipped() throws Exception {
    Opml.Listed listed = Opml.read(file("bad-outlines.opml"), null);
    assertEquals(List.of(new Opml.Feed("Good", "https://good.example/feed", null)), listed.feeds());
    assertEquals(
        List.of("Local file", "Script", "Good again", "Blank"),
        listed.skipped().stream().map(Opml.Skipped::title).toList());
    assertEquals("listed before", listed.skipped().get(2).problem());
  }

  @Test
  public void aDtdIsRefusedSoNoEntityIsEverDeclaredOrFetched() throws Exception {
    for (String hostile : List.of("billion-laughs.opml", "external-entity.opml")) {
      Opml.NotOpml refused =
          assertThrows(Opml.NotOpml.class, () -> Opml.read(file(hostile), "application/xml"));
      assertTrue(refused.getMessage(), refused.getMessage().contains("DTD"));
    }
    // without a DTD an entity reference is only text: nothing is expanded
    Opml.Listed listed = Opml.read(file("undeclared-entity.opml"), null);
    assertEquals("Title &xxe; & more", listed.feeds().get(0).title());
  }

  @Test
  public void deepNestingIsFlattenedNotFollowed() throws Exception {
    int depth = 5_000;
    String deep =
        "<opml version=\"2.0\"><body>"
            + "<outline text=\"f\">".repeat(depth)
            + "<outline text=\"Bottom\" xmlUrl=\"https://deep.example/feed\"/>"
            + "</outline>".repeat(depth)
            + "</body></opml>";
    Opml.Listed listed = read(deep);
    assertEquals(1, listed.feeds().size());
    assertEquals("https://deep.example/feed", listed.feeds().get(0).url());
    assertTrue(listed.feeds().get(0).folder().length() <= Opml.MAX_TITLE);
  }

  @Test
  public void aHugeFileIsRefusedAndOneOfManyOutlinesIsCutAtTheBounds() throws Exception {
    byte[] huge = new byte[Opml.MAX_BYTES + 1];
    java.util.Arrays.fill(huge, (byte) ' ');
    assertThrows(Opml.NotOpml.class, () -> Opml.read(huge, null));

    StringBuilder many = new StringBuilder("<opml version=\"2.0\"><body>");
    for (int i = 0; i < Opml.MAX_FEEDS + 500; i++)
      many.append("<outline text=\"f")
          .append(i)
          .append("\" xmlUrl=\"https://m.example/")
          .append(i)
          .append("\"/>");
    Opml.Listed listed = read(many + "</body></opml>");
    assertTrue(listed.cut());
    assertEquals(Opml.MAX_FEEDS, listed.feeds().size());
  }

  @Test
  public void whatIsNoOpmlIsRefused() throws Exception {
    assertThrows(Opml.NotOpml.class, () -> Opml.read(file("not-opml.xml"), null));
    assertThrows(Opml.NotOpml.class, () -> read("<opml version=\"2.0\"><head/></opml>"));
    assertThrows(Opml.NotOpml.class, () -> read("{\"json\": true}"));
  }

  @Test
  public void whatIsWrittenReadsBackTheSameWithItsTextEscaped() throws Exception {
    String written =
        Opml.write(
            "Alice's <watches>",
            List.of(
                new Opml.Folder(
                    "Launches & \"dates\"",
                    List.of(
                        new Opml.Feed(
                            "https://a.example/f?x=1&y=2", "https://a.example/f?x=1&y=2", null))),
                new Opml.Folder(null, List.of(new Opml.Feed("B", "https://b.example/", null)))));
    Opml.Listed back = read(written);
    assertEquals("Alice's <watches>", back.title());
    assertEquals(
        List.of(
            new Opml.Feed(
                "https://a.example/f?x=1&y=2",
                "https://a.example/f?x=1&y=2",
                "Launches & \"dates\""),
            new Opml.Feed("B", "https://b.example/", null)),
        back.feeds());
    assertNull(back.feeds().get(1).folder());
  }
}
