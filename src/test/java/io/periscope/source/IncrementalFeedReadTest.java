package io.periscope.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * A feed read again with the memo of its last read ({@link EntryMemo}) reads as it does whole:
 * real-world feeds, and generated ones, each read whole, then again after an entry is added,
 * removed or changed (and back).
 */
public class IncrementalFeedReadTest {
  /**
   * The real-world feeds of the conformance corpus, in the spec's folder beside the project (as CI
   * lays it out); {@code -Dfeeds.corpus} names another.
   */
  private static final Path CORPUS =
      Path.of(System.getProperty("feeds.corpus", "../shared/conformance/feeds/corpus"));

  private static final String URL = "https://feeds.example/news/feed.xml";

  private static final Pattern ENTRY =
      Pattern.compile(
          "<((?:[A-Za-z0-9_-]+:)?(?:item|entry))\\b[^>]*+(?<!/)>.*?</\\1\\s*>",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  /** A whole read and a read given {@code last}: the same read, or the same failure. */
  private static FeedReader.Reading readsAlike(String name, byte[] body, EntryMemo last)
      throws Exception {
    return readsAlike(name, body, URL, 200, last);
  }

  private static FeedReader.Reading readsAlike(
      String name, byte[] body, String url, int maxEntries, EntryMemo last) throws Exception {
    FeedReader.Reading whole;
    try {
      whole = FeedReader.read(body, null, url, maxEntries, 50_000, EntryMemo.NONE);
    } catch (FeedReader.NotAFeed notAFeed) {
      try {
        FeedReader.read(body, null, url, maxEntries, 50_000, last);
      } catch (FeedReader.NotAFeed again) {
        assertEquals(name, notAFeed.getMessage(), again.getMessage());
        return null;
      }
      throw new AssertionError(name + ": read given a memo, not whole");
    }
    FeedReader.Reading again = FeedReader.read(body, null, url, maxEntries, 50_000, last);
    assertEquals(name, whole.read(), again.read());
    assertEquals(name, whole.memo().size(), again.memo().size());
    return again;
  }

  /** How many of {@code read}'s entries are {@code last}'s own objects. */
  private static int reused(FeedReader.Reading read, FeedReader.Reading last) {
    int reused = 0;
    for (FeedReader.Entry e : read.read().entries()) {
      for (FeedReader.Entry l : last.read().entries()) {
        if (e == l) {
          reused++;
          break;
        }
      }
    }
    return reused;
  }

  /** The body with one entry added, one removed and one changed, where it has entries to change. */
  private static List<byte[]> variants(byte[] body) {
    String text = new String(body, StandardCharsets.ISO_8859_1); // byte for byte
    List<int[]> spans = new ArrayList<>();
    Matcher m = ENTRY.matcher(text);
    while (m.find()) spans.add(new int[] {m.start(), m.end()});
    List<byte[]> variants = new ArrayList<>();
    if (spans.isEmpty()) return variants;
    int[] first = spans.get(0);
    int[] lastSpan = spans.get(spans.size() - 1);
    // with the space that follows it, as a feed's writer adds and removes an entry
    int end = first[1];
    while (end < text.length() && Character.isWhitespace(text.charAt(end))) end++;
    String entry = text.substring(first[0], first[1]) + text.substring(first[1], end);
    variants.add(
        (text.substring(0, first[0]) + changed(entry, "added") + text.substring(first[0]))
            .getBytes(StandardCharsets.ISO_8859_1));
    variants.add(
        (text.substring(0, first[0]) + text.substring(end)).getBytes(StandardCharsets.ISO_8859_1));
    variants.add(
        (text.substring(0, lastSpan[0])
                + changed(text.substring(lastSpan[0], lastSpan[1]), "changed")
                + text.substring(lastSpan[1]))
            .getBytes(StandardCharsets.ISO_8859_1));
    return variants;
  }

  /** The entry with {@code word} in its title, or a title of {@code word} where it has none. */
  private static String changed(String entry, String word) {
    Matcher title = Pattern.compile("</((?:[A-Za-z0-9_-]+:)?title)>").matcher(entry);
    if (title.find())
      return entry.substring(0, title.start()) + " " + word + entry.substring(title.start());
    int open = entry.indexOf('>') + 1;
    return entry.substring(0, open) + "<title>" + word + "</title>" + entry.substring(open);
  }

  @Test
  public void realWorldFeedsReadAgainReadAsWhole() throws Exception {
    assumeTrue("no feed corpus at " + CORPUS, Files.isDirectory(CORPUS));
    List<Path> files;
    try (Stream<Path> listed = Files.list(CORPUS)) {
      files = listed.filter(Files::isRegularFile).sorted().toList();
    }
    int varied = 0;
    int reused = 0;
    for (Path file : files) {
      String name = file.getFileName().toString();
      byte[] body = Files.readAllBytes(file);
      FeedReader.Reading first = readsAlike(name, body, EntryMemo.NONE);
      if (first == null) continue;
      for (byte[] variant : variants(body)) {
        FeedReader.Reading again = readsAlike(name + " (varied)", variant, first.memo());
        varied++;
        if (again == null) continue;
        reused += reused(again, first);
        readsAlike(name + " (and back)", body, again.memo());
      }
    }
    assertTrue("feeds varied: " + varied, varied > 500);
    assertTrue("entries reused: " + reused, reused > 6_500);
  }

  private static FeedReader.Reading readsAlike(String name, String body, EntryMemo last)
      throws Exception {
    return readsAlike(name, body.getBytes(StandardCharsets.UTF_8), last);
  }

  /** RSS 2.0 items {@code from} down to {@code to}, newest first, with the modules feeds use. */
  private static String rss(String channel, int from, int to) {
    StringBuilder items = new StringBuilder();
    for (int i = from; i >= to; i--) {
      items.append(
          "<item><title>Item "
              + i
              + "</title><link>/posts/"
              + i
              + "</link><guid isPermaLink=\"false\">g"
              + i
              + "</guid><dc:creator>A</dc:creator><pubDate>Mon, 0"
              + (i % 9 + 1)
              + " Jan 2024 10:00:00 GMT</pubDate><description><![CDATA[<p>Text <b>"
              + i
              + "</b></p>]]></description><content:encoded>&lt;p&gt;More "
              + i
              + "&lt;/p&gt;</content:encoded><enclosure url=\"/a/"
              + i
              + ".mp3\" length=\"1\" type=\"audio/mpeg\"/>"
              + "<atom:link rel=\"alternate\" href=\"https://other.example/"
              + i
              + "\"/></item>\n  ");
    }
    return "<?xml version=\"1.0\"?><rss version=\"2.0\""
        + " xmlns:dc=\"http://purl.org/dc/elements/1.1/\""
        + " xmlns:content=\"http://purl.org/rss/1.0/modules/content/\""
        + " xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel>"
        + channel
        + "<lastBuildDate>Mon, 0"
        + (from % 9 + 1)
        + " Jan 2024 10:00:00 GMT</lastBuildDate>"
        + items
        + "</channel></rss>";
  }

  /** Atom entries {@code from} down to {@code to}, with xml:base on the feed and on entries. */
  private static String atom(String feedBase, int from, int to) {
    StringBuilder entries = new StringBuilder();
    for (int i = from; i >= to; i--) {
      entries.append(
          "<entry"
              + (i % 2 == 0 ? " xml:base=\"sub/\"" : "")
              + "><id>urn:e:"
              + i
              + "</id><title type=\"html\">Entry &lt;i&gt;"
              + i
              + "&lt;/i&gt;</title><link href=\"e/"
              + i
              + "\"/><link rel=\"enclosure\" xml:base=\"/media/\" href=\""
              + i
              + ".ogg\"/><updated>2024-01-0"
              + (i % 9 + 1)
              + "T10:00:00Z</updated><summary type=\"xhtml\"><div"
              + " xmlns=\"http://www.w3.org/1999/xhtml\">Sum <b>"
              + i
              + "</b></div></summary></entry>");
    }
    return "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\""
        + feedBase
        + "\"><title>F</title><author><name>Feed Author</name></author>"
        + "<updated>2024-01-0"
        + (from % 9 + 1)
        + "T10:00:00Z</updated>"
        + entries
        + "</feed>";
  }

  /** RSS 1.0 (RDF) items {@code from} down to {@code to}. */
  private static String rdf(int from, int to) {
    StringBuilder items = new StringBuilder();
    for (int i = from; i >= to; i--) {
      items.append(
          "<item rdf:about=\"https://r.example/"
              + i
              + "\"><title>R "
              + i
              + "</title><link>https://r.example/"
              + i
              + "</link><dc:date>2024-01-0"
              + (i % 9 + 1)
              + "T10:00:00+01:00</dc:date><description>D "
              + i
              + "</description></item>");
    }
    return "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\""
        + " xmlns=\"http://purl.org/rss/1.0/\""
        + " xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel"
        + " rdf:about=\"https://r.example/\"><title>R</title><link>https://r.example/</link>"
        + "<dc:date>2024-01-0"
        + (from % 9 + 1)
        + "</dc:date></channel>"
        + items
        + "</rdf:RDF>";
  }

  @Test
  public void aFeedThatGainedAnItemMapsThatItemOnly() throws Exception {
    for (int format = 0; format < 3; format++) {
      String[] bodies = new String[3];
      for (int gained = 0; gained < 3; gained++) {
        int newest = 20 + gained;
        bodies[gained] =
            switch (format) {
              case 0 -> rss("<title>News</title>", newest, newest - 19);
              case 1 -> atom("https://feeds.example/blog/", newest, newest - 19);
              default -> rdf(newest, newest - 19);
            };
      }
      FeedReader.Reading first = readsAlike("format " + format, bodies[0], EntryMemo.NONE);
      assertEquals(20, first.memo().size());
      // RSS 1.0 is not told apart in its text (its items are outside its channel)
      assertEquals(format < 2 ? 20 : 0, first.memo().texts());
      FeedReader.Reading second = readsAlike("format " + format, bodies[1], first.memo());
      assertEquals("format " + format, 19, reused(second, first));
      assertNotSame(first.read().entries().get(0), second.read().entries().get(0));
      assertSame(first.read().entries().get(0), second.read().entries().get(1));
      FeedReader.Reading third = readsAlike("format " + format, bodies[2], second.memo());
      assertEquals(19, reused(third, second));
      // a memo two reads old, and one from a feed that shrank
      readsAlike("format " + format, bodies[2], first.memo());
      readsAlike("format " + format, bodies[0], third.memo());
      assertEquals(format < 2 ? 20 : 0, third.memo().texts());
    }
    // an entry removed: every entry known by its text, nothing to parse
    String rss = rss("<title>News</title>", 20, 1);
    FeedReader.Reading all = readsAlike("rss", rss, EntryMemo.NONE);
    FeedReader.Reading fewer = readsAlike("fewer", rss("<title>News</title>", 20, 2), all.memo());
    assertEquals(19, reused(fewer, all));
    assertEquals(19, fewer.memo().texts());
  }

  /**
   * A feed that gained an entry mostly moved its own date too: the text's context leaves the feed's
   * dates out (as the elements' context does), so the read given the memo still parses the new
   * entry alone, and reads as the whole read does.
   */
  @Test
  public void theFeedsOwnDatesAreNotItsTextsContext() throws Exception {
    String rss =
        rss(
            "<title>News</title><lastBuildDate>Mon, 01 Jan 2024 10:00:00 GMT</lastBuildDate>",
            20,
            1);
    String moved =
        rss(
            "<title>News</title><lastBuildDate>Tue, 02 Jan 2024 10:00:00 GMT</lastBuildDate>",
            21,
            2);
    String retitled =
        rss(
            "<title>Newer</title><lastBuildDate>Tue, 02 Jan 2024 10:00:00 GMT</lastBuildDate>",
            21,
            2);
    byte[] context = RawEntries.of(rss).context(URL, 200, 50_000);
    assertTrue(Arrays.equals(context, RawEntries.of(moved).context(URL, 200, 50_000)));
    assertFalse(Arrays.equals(context, RawEntries.of(retitled).context(URL, 200, 50_000)));
    String atom = atom("https://feeds.example/blog/", 20, 1);
    String atomMoved = atom("https://feeds.example/blog/", 21, 2);
    assertTrue(
        Arrays.equals(
            RawEntries.of(atom).context(URL, 200, 50_000),
            RawEntries.of(atom("https://feeds.example/blog/", 21, 1)).context(URL, 200, 50_000)));
    FeedReader.Reading first = readsAlike("rss", rss, EntryMemo.NONE);
    FeedReader.Reading second = readsAlike("moved", moved, first.memo());
    assertEquals(19, reused(second, first));
    assertEquals(20, second.memo().texts());
    FeedReader.Reading atomFirst = readsAlike("atom", atom, EntryMemo.NONE);
    FeedReader.Reading atomSecond = readsAlike("atom moved", atomMoved, atomFirst.memo());
    assertEquals(19, reused(atomSecond, atomFirst));
  }

  /**
   * What the text's scanner is not sure of tells nothing apart, and reads as whole: a feed of each
   * kind, then the same feed with an entry added, given the memo of the plain feed and of itself.
   */
  @Test
  public void whatTheScannerIsNotSureOfReadsWhole() throws Exception {
    String plain = rss("<title>News</title>", 3, 1);
    assertEquals(3, RawEntries.of(plain).size());
    assertEquals(3, RawEntries.of(atom("https://feeds.example/", 3, 1)).size());
    String item = "<item><title>Item 3</title>";
    List<String> odd =
        List.of(
            plain.replace("<?xml version=\"1.0\"?>", "<!DOCTYPE rss [<!ENTITY e \"x\">]>"),
            plain.replace("</item>\n  <item>", "</item><!-- a --><item>"),
            plain.replace("</item>\n  <item>", "</item><![CDATA[ ]]><item>"),
            plain
                .replace(item, "<Item><title>Item 3</title>")
                .replace("</item>\n  <item><title>Item 2", "</Item>\n  <item><title>Item 2"),
            plain.replace(item, "<item xmlns:x=\"urn:x\"><title>Item 3</title>"),
            plain.replace(item, "<item><x:title xmlns:x=\"urn:x\">Item 3</x:title>"),
            plain.replace(item, "<item xmlns=\"urn:x\"><title>Item 3</title>"),
            plain.replace(item, "<item><title>Item 3</title><item></item>"),
            plain.replace(item, "<item><title a=b>Item 3</title>"),
            plain.replace(item, "<item><br><title>Item 3</title>"),
            plain.replace(item, "<item><?pi x?><title>Item 3</title>"),
            plain.replace("</channel></rss>", "</channel>"),
            plain.replace("</channel></rss>", "</channel></rss><rss/>"),
            plain.replace("</channel></rss>", "</channel><item><title>Out</title></item></rss>"),
            plain.replace("<rss ", "<RSS ").replace("</rss>", "</RSS>"),
            rdf(3, 1));
    FeedReader.Reading first = readsAlike("plain", plain, EntryMemo.NONE);
    // a new entry with a control character: the memo's text had none, so only it is looked at
    String control = rss("<title>News</title>", 4, 1).replace("Item 4", "Item\u00014");
    assertEquals(
        List.of("control-characters"),
        readsAlike("control", control, first.memo()).read().recoveries());
    for (String body : odd) {
      assertEquals(body, null, RawEntries.of(body));
      FeedReader.Reading oddRead = readsAlike(body, body, first.memo());
      if (oddRead == null) continue;
      int at = body.indexOf(item);
      if (at < 0) continue;
      String added = body.substring(0, at) + "<item><title>New</title></item>" + body.substring(at);
      readsAlike(added, added, oddRead.memo());
      readsAlike(added, added, first.memo());
    }
  }

  @Test
  public void whatAnEntrysMappingReadsOutsideItIsPartOfTheKey() throws Exception {
    String rss = rss("<title>News</title>", 5, 1);
    FeedReader.Reading first = readsAlike("rss", rss, EntryMemo.NONE);
    // the base URL relative links resolve against
    FeedReader.Reading moved =
        readsAlike(
            "moved",
            rss.getBytes(StandardCharsets.UTF_8),
            "https://m.example/f",
            200,
            first.memo());
    assertEquals(0, reused(moved, first));
    assertEquals("https://m.example/posts/5", moved.read().entries().get(0).link());
    // the feed's part: its xml:base, a namespace it declares, an element of its own
    String atom = atom("https://feeds.example/blog/", 5, 1);
    FeedReader.Reading atomFirst = readsAlike("atom", atom, EntryMemo.NONE);
    FeedReader.Reading rebased =
        readsAlike("rebased", atom("https://elsewhere.example/", 6, 1), atomFirst.memo());
    assertEquals(0, reused(rebased, atomFirst));
    assertEquals("https://elsewhere.example/e/5", rebased.read().entries().get(1).link());
    String redeclared = rss.replace("http://purl.org/rss/1.0/modules/content/", "urn:other");
    assertEquals(0, reused(readsAlike("redeclared", redeclared, first.memo()), first));
    FeedReader.Reading retitled =
        readsAlike("retitled", rss("<title>Other</title>", 5, 1), first.memo());
    assertEquals(0, reused(retitled, first));
    // the feed's dates are not read: a new one keeps the entries known
    assertEquals(
        5,
        reused(
            readsAlike("rebuilt", rss.replace("<lastBuildDate>", "<lastBuildDate>x"), first.memo()),
            first));
  }

  @Test
  public void entriesPastTheBoundAndUnmappableOnesReadAsWhole() throws Exception {
    byte[] five = rss("", 5, 1).getBytes(StandardCharsets.UTF_8);
    FeedReader.Reading first = readsAlike("bounded", five, URL, 3, EntryMemo.NONE);
    byte[] six = rss("", 6, 1).getBytes(StandardCharsets.UTF_8);
    FeedReader.Reading second = readsAlike("bounded", six, URL, 3, first.memo());
    assertEquals(2, reused(second, first));
    // a feed whose own part Rome cannot map: each entry is mapped alone, and nothing is remembered
    String faulty = rss("<skipHours><hour>noon</hour></skipHours>", 3, 1);
    FeedReader.Reading alone = readsAlike("faulty", faulty, first.memo());
    assertTrue(alone.read().recoveries().contains("unmappable"));
    assertEquals(0, alone.memo().size());
    // an entry Rome cannot map (Atom 0.3's base64 that is none), new since the last read
    String atom03 =
        "<feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\">"
            + "<entry><id>a</id><title>A</title></entry><entry><id>b</id><title>B</title></entry>"
            + "</feed>";
    FeedReader.Reading known = readsAlike("atom 0.3", atom03, EntryMemo.NONE);
    String broken =
        atom03.replace(
            "<entry><id>a",
            "<entry><id>c</id><title mode=\"base64\">!!</title></entry><entry><id>a");
    FeedReader.Reading brokenRead = readsAlike("broken", broken, known.memo());
    assertEquals(List.of("unmappable"), brokenRead.read().recoveries());
    assertEquals(2, brokenRead.read().entries().size());
    assertEquals(0, brokenRead.memo().size());
  }
}
