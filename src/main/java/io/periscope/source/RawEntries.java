package io.periscope.source;

import io.periscope.crypto.Sha256;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A feed's text told apart, before it is parsed, into its entries and the text outside them (its
 * context), so that a feed that gained an entry parses that entry alone ({@link FeedReader}). Only
 * the plain shapes: RSS 2.0 ({@code <item>} in {@code <rss><channel>}) and Atom ({@code <entry>} in
 * {@code <feed>}), the entries side by side with nothing but space between them. Whatever this is
 * not sure of tells nothing apart and the feed is parsed whole: a DOCTYPE, a processing instruction
 * or CDATA outside the prolog or the root, a tag it cannot read (an attribute without quotes), an
 * end tag that is not the open element's, an entry's name elsewhere or in another case or with a
 * prefix, an entry within an entry, a prefix declared within an entry (the document's prefixes are
 * all checked at once) or a default namespace on one, text or a second root around the root, a root
 * left open.
 *
 * <p>Hand-written, not a parser's tokens: jsoup's parse is the cost this avoids, and a StAX reader
 * stops where jsoup recovers and gives no offsets of an element's text. This reads tags only; text,
 * comments and CDATA are skipped with {@code indexOf}.
 */
final class RawEntries {
  private final String text;
  private final List<int[]> spans;

  /**
   * The feed's own dates (the root's and its channel's), outside the entries: left out of the
   * context as {@link FeedDocument#dropFeedDates} leaves them out of the elements' context, since a
   * feed that gained an entry mostly moved its own date too, and no entry's reading depends on it.
   */
  private final List<int[]> dates;

  private final int elements;

  private RawEntries(String text, List<int[]> spans, List<int[]> dates, int elements) {
    this.text = text;
    this.spans = spans;
    this.dates = dates;
    this.elements = elements;
  }

  /** How many entries the text has. */
  int size() {
    return spans.size();
  }

  /** How many start tags the whole text has (each an element of the parse). */
  int elements() {
    return elements;
  }

  /** The digest of the context, of the feed's final URL and of the bounds it is read within. */
  byte[] context(String feedUrl, int maxEntries, int maxElements) {
    MessageDigest sha = Sha256.digest();
    Chars out = new Chars();
    addWithoutDates(out, 0, spans.get(0)[0]);
    addWithoutDates(out, spans.get(spans.size() - 1)[1], text.length());
    out.add(feedUrl + " " + maxEntries + " " + maxElements, 0, -1);
    sha.update(out.bytes, 0, out.length);
    return sha.digest();
  }

  /** The text from {@code from} to {@code to}, each of the feed's dates in it left out. */
  private void addWithoutDates(Chars out, int from, int to) {
    int at = from;
    for (int[] date : dates) {
      if (date[0] < at || date[1] > to) continue;
      out.add(text, at, date[0]);
      at = date[1];
    }
    out.add(text, at, to);
  }

  /** The digest of each entry's text, in document order. */
  List<byte[]> keys() {
    MessageDigest sha = Sha256.digest();
    Chars out = new Chars();
    List<byte[]> keys = new ArrayList<>(spans.size());
    for (int[] span : spans) {
      out.length = 0;
      out.add(text, span[0], span[1]);
      sha.update(out.bytes, 0, out.length);
      keys.add(sha.digest());
    }
    return keys;
  }

  /** The text with only the entries at {@code indexes} (ascending), each on a line of its own. */
  String with(List<Integer> indexes) {
    StringBuilder only = new StringBuilder(text.length());
    only.append(text, 0, spans.get(0)[0]);
    for (int i : indexes) only.append(text, spans.get(i)[0], spans.get(i)[1]).append('\n');
    return only.append(text, spans.get(spans.size() - 1)[1], text.length()).toString();
  }

  /**
   * Strings for a digest: each its length, then its code units below 255 as a byte each, the others
   * as 255 and their two bytes (no charset to replace any; feeds are mostly ASCII).
   */
  private static final class Chars {
    private byte[] bytes = new byte[8192];
    private int length;

    /** {@code s} from {@code from} to {@code to} (-1: its end). */
    void add(String s, int from, int to) {
      int end = to < 0 ? s.length() : to;
      int n = end - from;
      if (length + 4 + 3 * n > bytes.length)
        bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + 4 + 3 * n));
      bytes[length++] = (byte) (n >>> 24);
      bytes[length++] = (byte) (n >>> 16);
      bytes[length++] = (byte) (n >>> 8);
      bytes[length++] = (byte) n;
      for (int i = from; i < end; i++) {
        char c = s.charAt(i);
        if (c < 255) {
          bytes[length++] = (byte) c;
        } else {
          bytes[length++] = (byte) 255;
          bytes[length++] = (byte) (c >>> 8);
          bytes[length++] = (byte) c;
        }
      }
    }
  }

  /** The entries of {@code text}, or null where this is not sure of them or there are none. */
  static RawEntries of(String text) {
    int n = text.length();
    List<String> open = new ArrayList<>();
    List<int[]> spans = new ArrayList<>();
    List<int[]> dates = new ArrayList<>();
    int dateStart = -1;
    int dateDepth = 0;
    String entryName = null;
    int entryDepth = 0;
    int entryStart = -1;
    int elements = 0;
    boolean rootClosed = false;
    int i = 0;
    while (true) {
      int lt = text.indexOf('<', i);
      if (open.isEmpty() && !isSpace(text, i, lt < 0 ? n : lt)) return null;
      if (lt < 0) break;
      if (text.startsWith("<!--", lt)) {
        int end = text.indexOf("-->", lt + 4);
        if (end < 0) return null;
        i = end + 3;
      } else if (text.startsWith("<![CDATA[", lt)) {
        int end = text.indexOf("]]>", lt + 9);
        if (end < 0 || open.isEmpty()) return null;
        i = end + 3;
      } else if (text.startsWith("<?", lt)) {
        int gt = text.indexOf('>', lt);
        if (gt < 0 || text.charAt(gt - 1) != '?' || !open.isEmpty() || entryName != null)
          return null;
        i = gt + 1;
      } else if (text.startsWith("</", lt)) {
        int j = name(text, lt + 2);
        String name = text.substring(lt + 2, j);
        j = space(text, j);
        if (j >= n || text.charAt(j) != '>' || open.isEmpty()) return null;
        if (!open.remove(open.size() - 1).equals(name)) return null;
        if (entryStart >= 0 && open.size() == entryDepth) {
          spans.add(new int[] {entryStart, j + 1});
          entryStart = -1;
        }
        if (dateStart >= 0 && open.size() == dateDepth) {
          dates.add(new int[] {dateStart, j + 1});
          dateStart = -1;
        }
        rootClosed = open.isEmpty();
        i = j + 1;
      } else if (lt + 1 < n && isNameStart(text.charAt(lt + 1)) && !rootClosed) {
        int j = name(text, lt + 1);
        String name = text.substring(lt + 1, j);
        elements++;
        String local = name.substring(name.indexOf(':') + 1);
        boolean isEntry = false;
        if (open.isEmpty()) {
          if (name.equals("rss")) entryName = "item";
          else if (name.equals("feed")) entryName = "entry";
          else return null;
          entryDepth = name.equals("rss") ? 2 : 1;
        } else if (local.equalsIgnoreCase("item") || local.equalsIgnoreCase("entry")) {
          isEntry =
              name.equals(entryName)
                  && open.size() == entryDepth
                  && entryStart < 0
                  && (entryDepth == 1 || open.get(1).equals("channel"));
          if (!isEntry) return null;
          if (!spans.isEmpty() && !isSpace(text, spans.get(spans.size() - 1)[1], lt)) return null;
        }
        boolean closed = false;
        while (true) {
          int at = space(text, j);
          if (at >= n) return null;
          if (text.charAt(at) == '>') {
            j = at + 1;
            break;
          }
          if (text.startsWith("/>", at)) {
            j = at + 2;
            closed = true;
            break;
          }
          if (at == j) return null; // an attribute not after space
          int end = name(text, at);
          String attribute = text.substring(at, end);
          // a declaration in an entry would be the entry's context, not its text
          boolean declares = attribute.startsWith("xmlns:") || isEntry && attribute.equals("xmlns");
          if (end == at || (declares && (isEntry || entryStart >= 0))) return null;
          j = space(text, end);
          if (j >= n || text.charAt(j) != '=') return null;
          j = space(text, j + 1);
          if (j >= n || (text.charAt(j) != '"' && text.charAt(j) != '\'')) return null;
          int close = text.indexOf(text.charAt(j), j + 1);
          if (close < 0 || text.substring(j + 1, close).indexOf('<') >= 0) return null;
          j = close + 1;
        }
        if (closed && (open.isEmpty() || isEntry)) return null;
        if (isEntry) entryStart = lt;
        boolean feedLevel = open.size() == 1 || (open.size() == 2 && open.get(1).equals("channel"));
        if (feedLevel
            && entryStart < 0
            && dateStart < 0
            && FeedDocument.ROME_DATES.contains(local)) {
          if (closed) dates.add(new int[] {lt, j});
          else {
            dateStart = lt;
            dateDepth = open.size();
          }
        }
        if (!closed) open.add(name);
        i = j;
      } else {
        return null; // a DOCTYPE, a declaration, a second root, a '<' jsoup reads as text
      }
    }
    return rootClosed && !spans.isEmpty() ? new RawEntries(text, spans, dates, elements) : null;
  }

  private static boolean isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  /** The end of the name that starts at {@code from}: ASCII letters, digits, {@code _.:-}. */
  private static int name(String text, int from) {
    int j = from;
    while (j < text.length()) {
      char c = text.charAt(j);
      if (!(isNameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':')) break;
      j++;
    }
    return j;
  }

  /** The first index from {@code from} that is not XML's space. */
  private static int space(String text, int from) {
    int j = from;
    while (j < text.length() && isSpace(text.charAt(j))) j++;
    return j;
  }

  private static boolean isSpace(String text, int from, int to) {
    return space(text, from) >= to;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
}
