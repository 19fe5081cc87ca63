package io.periscope.source;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jsoup.nodes.Element;

/**
 * OPML, the list of feeds every feed reader exports: read into feeds (title, URL, folder) and
 * written from them. Reading is as bounded as a feed's: the text is at most {@link #MAX_BYTES}, a
 * DTD is refused (so no entity is ever declared, let alone expanded), the budgeted parse stops at
 * its element budget and flattens nesting past {@link BudgetedParse#MAX_DEPTH}, and at most {@link
 * #MAX_FEEDS} feeds are listed.
 */
public final class Opml {
  /** A feed an OPML file lists: its title, address and folder (the outlines around it, or null). */
  public record Feed(String title, String url, String folder) {}

  /** An outline with a feed address that cannot be a source, and why. */
  public record Skipped(String title, String url, String problem) {}

  /**
   * A read file: its title (may be null), the feeds in its order, what was left out and whether the
   * bounds cut it short.
   */
  public record Listed(String title, List<Feed> feeds, List<Skipped> skipped, boolean cut) {}

  /** A folder of feeds to write: its name (null: at the top level) and its feeds. */
  public record Folder(String name, List<Feed> feeds) {}

  /** Why a body is no OPML this service reads. */
  public static final class NotOpml extends Exception {
    NotOpml(String message) {
      super(message, null, false, false);
    }
  }

  public static final int MAX_BYTES = 1 << 20;
  public static final int MAX_FEEDS = 1_000;
  public static final int MAX_ELEMENTS = 20_000;

  /** Titles and folder names are cut to this (a watch's name is at most 200 characters). */
  public static final int MAX_TITLE = 200;

  private static final Pattern DOCTYPE = Pattern.compile("<!DOCTYPE", Pattern.CASE_INSENSITIVE);

  private Opml() {}

  public static Listed read(byte[] body, String contentType) throws NotOpml {
    if (body.length > MAX_BYTES)
      throw new NotOpml("an OPML file is at most " + MAX_BYTES + " bytes");
    String text =
        TextDecoding.decode(body, contentType, TextDecoding.Declaration.XML_PROLOG).text();
    if (DOCTYPE.matcher(text).find()) throw new NotOpml("an OPML file with a DTD is refused");
    BudgetedParse parse = BudgetedParse.xml(text, "", MAX_ELEMENTS);
    Element root =
        parse.document().children().stream()
            .filter(e -> e.normalName().equals("opml"))
            .findFirst()
            .orElseThrow(() -> new NotOpml("not an OPML file: its root is not <opml>"));
    Element outlines =
        root.children().stream()
            .filter(e -> e.normalName().equals("body"))
            .findFirst()
            .orElseThrow(() -> new NotOpml("not an OPML file: it has no <body>"));
    Element head =
        root.children().stream()
            .filter(e -> e.normalName().equals("head"))
            .findFirst()
            .orElse(null);
    String title = null;
    if (head != null) {
      Element t =
          head.children().stream()
              .filter(e -> e.normalName().equals("title"))
              .findFirst()
              .orElse(null);
      if (t != null) title = bounded(t.text());
    }
    List<Feed> feeds = new ArrayList<>();
    List<Skipped> skipped = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    boolean cut = parse.cut();
    for (Element outline : outlines.getElementsByTag("outline")) {
      String address = attribute(outline, "xmlurl");
      if (address == null) continue; // a folder
      String name = bounded(firstNonBlank(attribute(outline, "text"), attribute(outline, "title")));
      String url = FeedUrls.valid(address).orElse(null);
      if (url == null) {
        if (skipped.size() < MAX_FEEDS)
          skipped.add(
              new Skipped(
                  name,
                  bounded(address),
                  "not an http(s) URL of at most " + FeedUrls.MAX_LENGTH + " characters"));
        continue;
      }
      if (!seen.add(url)) {
        if (skipped.size() < MAX_FEEDS) skipped.add(new Skipped(name, url, "listed before"));
        continue;
      }
      if (feeds.size() == MAX_FEEDS) {
        cut = true;
        break;
      }
      feeds.add(new Feed(name == null ? url : name, url, folder(outline, outlines)));
    }
    return new Listed(title, List.copyOf(feeds), List.copyOf(skipped), cut);
  }

  /** The titles of the outlines around {@code outline}, outermost first, joined by " / ". */
  private static String folder(Element outline, Element body) {
    List<String> names = new ArrayList<>();
    for (Element p = outline.parent(); p != null && p != body; p = p.parent()) {
      if (!p.normalName().equals("outline")) continue;
      String name = firstNonBlank(attribute(p, "text"), attribute(p, "title"));
      if (name != null) names.add(0, name);
    }
    return names.isEmpty() ? null : bounded(String.join(" / ", names));
  }

  /** An attribute by its name in any case (readers write xmlUrl, xmlurl and XMLURL). */
  private static String attribute(Element e, String lowerName) {
    for (var a : e.attributes())
      if (a.getKey().toLowerCase(Locale.ROOT).equals(lowerName)) return a.getValue();
    return null;
  }

  private static String firstNonBlank(String a, String b) {
    if (a != null && !a.isBlank()) return a;
    return b != null && !b.isBlank() ? b : null;
  }

  private static String bounded(String s) {
    if (s == null) return null;
    String stripped = s.strip().replaceAll("\\s+", " ");
    if (stripped.isEmpty()) return null;
    return stripped.length() <= MAX_TITLE ? stripped : stripped.substring(0, MAX_TITLE);
  }

  /** An OPML 2.0 document titled {@code title} with {@code folders}, as UTF-8 text. */
  public static String write(String title, List<Folder> folders) {
    StringWriter out = new StringWriter();
    try {
      XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
      xml.writeStartDocument("UTF-8", "1.0");
      xml.writeStartElement("opml");
      xml.writeAttribute("version", "2.0");
      xml.writeStartElement("head");
      xml.writeStartElement("title");
      xml.writeCharacters(title);
      xml.writeEndElement();
      xml.writeEndElement();
      xml.writeStartElement("body");
      for (Folder folder : folders) {
        if (folder.name() != null) {
          xml.writeStartElement("outline");
          xml.writeAttribute("text", folder.name());
          xml.writeAttribute("title", folder.name());
        }
        for (Feed feed : folder.feeds()) {
          xml.writeEmptyElement("outline");
          xml.writeAttribute("type", "rss");
          xml.writeAttribute("text", feed.title());
          xml.writeAttribute("title", feed.title());
          xml.writeAttribute("xmlUrl", feed.url());
        }
        if (folder.name() != null) xml.writeEndElement();
      }
      xml.writeEndElement();
      xml.writeEndElement();
      xml.writeEndDocument();
      xml.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("writing OPML to a string failed", e);
    }
    return out + "\n";
  }
}
