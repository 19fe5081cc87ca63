package io.periscope.source;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jdom2.Attribute;
import org.jdom2.CDATA;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.IllegalAddException;
import org.jdom2.IllegalDataException;
import org.jdom2.IllegalNameException;
import org.jdom2.Namespace;
import org.jdom2.Text;
import org.jsoup.nodes.CDataNode;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * The feed element of a lenient jsoup parse as the JDOM document Rome reads, with what real feeds
 * get wrong put right on the way: prefixes a feed uses without declaring them (a well-known one is
 * its namespace), the core names of RSS in any letter case, an RSS without a version it knows, a
 * {@code <channel>} without its {@code <rss>}, an RDF or Atom feed whose elements lost their
 * namespace, an Atom link whose address is its text, base64 broken over lines, entries a missing
 * end tag left nested in another element (they are the feed's), and an {@code xml:base} on the root
 * that is absolute (the feed's final URL when it names none). Entries past {@code maxEntries} are
 * left out before Rome maps any.
 *
 * @param document what Rome reads
 * @param container the element whose children the entries are ({@code channel}, or the root)
 * @param entries the entry (or item) elements Rome maps, in its order
 */
record FeedDocument(Document document, Element container, List<Element> entries) {
  static final Namespace ATOM_10 = Namespace.getNamespace("http://www.w3.org/2005/Atom");
  static final Namespace ATOM_03 = Namespace.getNamespace("http://purl.org/atom/ns#");
  static final Namespace RDF =
      Namespace.getNamespace("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#");
  private static final String RSS_10 = "http://purl.org/rss/1.0/";
  private static final String RSS_090 = "http://my.netscape.com/rdf/simple/0.9/";

  /** The namespaces of the prefixes feeds use without declaring them. */
  private static final Map<String, String> WELL_KNOWN =
      Map.ofEntries(
          Map.entry("rdf", RDF.getURI()),
          Map.entry("dc", "http://purl.org/dc/elements/1.1/"),
          Map.entry("dcterms", "http://purl.org/dc/terms/"),
          Map.entry("content", "http://purl.org/rss/1.0/modules/content/"),
          Map.entry("atom", ATOM_10.getURI()),
          Map.entry("media", "http://search.yahoo.com/mrss/"),
          Map.entry("itunes", "http://www.itunes.com/dtds/podcast-1.0.dtd"),
          Map.entry("slash", "http://purl.org/rss/1.0/modules/slash/"),
          Map.entry("wfw", "http://wellformedweb.org/CommentAPI/"),
          Map.entry("sy", "http://purl.org/rss/1.0/modules/syndication/"),
          Map.entry("feedburner", "http://rssnamespace.org/feedburner/ext/1.0"),
          Map.entry("thr", "http://purl.org/syndication/thread/1.0"),
          Map.entry("georss", "http://www.georss.org/georss"),
          Map.entry("xhtml", "http://www.w3.org/1999/xhtml"));

  /** RSS's own element names as Rome spells them. */
  private static final Map<String, String> RSS_NAMES = new HashMap<>();

  static {
    for (String name :
        List.of(
            "rss",
            "channel",
            "item",
            "title",
            "link",
            "description",
            "guid",
            "pubDate",
            "enclosure",
            "category",
            "source",
            "comments",
            "author",
            "image",
            "url")) {
      RSS_NAMES.put(name.toLowerCase(Locale.ROOT), name);
    }
  }

  /**
   * The elements Rome's parsers read as dates: RSS's, Dublin Core's, Atom 1.0's and 0.3's, and the
   * syndication module's base.
   */
  static final Set<String> ROME_DATES =
      Set.of(
          "pubDate",
          "lastBuildDate",
          "expirationDate",
          "date",
          "published",
          "updated",
          "issued",
          "modified",
          "created",
          "updateBase");

  private static final String UNDECLARED = "urn:periscope:undeclared-prefix:";

  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  /** The document Rome reads for the feed element {@code root}, fetched from {@code feedUrl}. */
  static FeedDocument of(org.jsoup.nodes.Element root, String feedUrl, int maxEntries) {
    String local = FeedReader.local(root);
    Element top = convert(root, Map.of(), !local.equals("rdf") && !local.equals("feed"));
    Element container;
    Namespace entryNs;
    String entryName;
    if (local.equals("feed")) {
      Namespace atom = atomNamespace(top);
      if (!top.getNamespace().equals(atom)) renamespace(top, top.getNamespace(), atom);
      repairAtom(top, atom);
      container = top;
      entryNs = atom;
      entryName = "entry";
    } else if (local.equals("rdf")) {
      top.setNamespace(RDF);
      Namespace rss = rdfNamespace(top);
      if (!rss.getURI().isEmpty()) {
        try {
          top.addNamespaceDeclaration(rss);
        } catch (IllegalAddException taken) {
          // the prefix is another's: Rome finds the namespace among the root's declarations anyway
        }
      }
      container = top;
      entryNs = rss;
      entryName = "item";
    } else {
      if (local.equals("channel")) { // a channel without its <rss>
        Element rss = new Element("rss");
        rss.addContent(top);
        top = rss;
      }
      String version = top.getAttributeValue("version", "").strip();
      if (!List.of("0.91", "0.92", "0.93", "0.94").contains(version)
          && !version.startsWith("2.0")) {
        top.setAttribute("version", "2.0");
      }
      container = top.getChild("channel");
      if (container == null) {
        container = new Element("channel");
        top.addContent(container);
      }
      entryNs = Namespace.NO_NAMESPACE;
      entryName = "item";
    }
    String base =
        FeedReader.resolve(feedUrl, top.getAttributeValue("base", Namespace.XML_NAMESPACE));
    if (base == null) base = feedUrl;
    if (base != null) top.setAttribute("base", base, Namespace.XML_NAMESPACE);
    Document document = new Document(top);
    List<Element> entries = outermost(top, entryName, entryNs);
    for (Element e : entries) e.detach();
    if (entries.size() > maxEntries) entries = entries.subList(0, maxEntries);
    for (Element e : entries) container.addContent(e);
    return new FeedDocument(document, container, entries);
  }

  /**
   * Leaves {@code only} of the entry elements in the document, in their order, for Rome to map: the
   * others are detached (all of them stay in {@link #entries}).
   */
  void withEntries(List<Element> only) {
    for (Element e : entries) e.detach();
    for (Element e : only) container.addContent(e);
  }

  /**
   * Takes the feed's own elements out (its title, image, skip hours: Periscope reads entries only),
   * keeping an RDF feed's {@code channel} empty, as Rome needs one.
   */
  void dropFeedElements() {
    for (Element c : List.copyOf(container.getChildren())) {
      if (entries.contains(c)) continue;
      if (c.getName().equals("channel")) c.removeContent();
      else c.detach();
    }
  }

  /**
   * Takes out the dates of the feed itself (Periscope reads entries only), from an RDF feed's
   * {@code channel} too, so Rome does not parse them.
   */
  void dropFeedDates() {
    dropDates(container);
    for (Element c : container.getChildren()) if (c.getName().equals("channel")) dropDates(c);
  }

  /** Takes out the child elements of {@code e} that Rome would parse as dates. */
  static void dropDates(Element e) {
    e.getChildren().removeIf(c -> ROME_DATES.contains(c.getName()));
  }

  /**
   * {@code e} and its content as JDOM, prefixes resolved against the declarations in scope; {@code
   * rss} is whether it is RSS 0.9x or 2.0, whose unprefixed names are in no namespace.
   */
  private static Element convert(
      org.jsoup.nodes.Element e, Map<String, String> inherited, boolean rss) {
    Map<String, String> scope = inherited;
    for (org.jsoup.nodes.Attribute a : e.attributes()) {
      String key = a.getKey();
      if (key.equals("xmlns") || key.startsWith("xmlns:")) {
        if (scope == inherited) scope = new HashMap<>(inherited);
        scope.put(key.equals("xmlns") ? "" : key.substring(6), a.getValue().strip());
      }
    }
    Element out = element(e.tagName(), scope, rss);
    for (org.jsoup.nodes.Attribute a : e.attributes()) {
      String key = a.getKey();
      try {
        if (key.equals("xmlns")) continue;
        if (key.startsWith("xmlns:")) {
          out.addNamespaceDeclaration(
              Namespace.getNamespace(key.substring(6), a.getValue().strip()));
          continue;
        }
        int colon = key.indexOf(':');
        if (colon < 0) out.setAttribute(key, a.getValue());
        else {
          String prefix = key.substring(0, colon);
          Namespace ns =
              prefix.equals("xml")
                  ? Namespace.XML_NAMESPACE
                  : Namespace.getNamespace(prefix, namespaceOf(prefix, scope));
          out.setAttribute(new Attribute(key.substring(colon + 1), a.getValue(), ns));
        }
      } catch (IllegalNameException | IllegalDataException | IllegalAddException unusable) {
        // an attribute XML cannot name, or a declaration that collides: not part of the feed
      }
    }
    for (Node child : e.childNodes()) {
      if (child instanceof org.jsoup.nodes.Element c) {
        out.addContent(convert(c, scope, rss));
      } else if (child instanceof CDataNode c) {
        String text = c.text();
        out.addContent(text.contains("]]>") ? new Text(text) : new CDATA(text));
      } else if (child instanceof TextNode t) {
        out.addContent(new Text(t.getWholeText()));
      } else if (child instanceof DataNode d) {
        out.addContent(new Text(d.getWholeData()));
      }
    }
    return out;
  }

  /** An element for a jsoup tag name; a name XML cannot have becomes a neutral one. */
  private static Element element(String tagName, Map<String, String> scope, boolean rss) {
    int colon = tagName.indexOf(':');
    String prefix = colon < 0 ? "" : tagName.substring(0, colon);
    String name = tagName.substring(colon + 1);
    try {
      if (prefix.isEmpty() && rss) {
        // RSS 0.9x and 2.0 are in no namespace: a default one some feeds declare is dropped
        return new Element(RSS_NAMES.getOrDefault(name.toLowerCase(Locale.ROOT), name));
      }
      if (prefix.isEmpty()) {
        return new Element(name, Namespace.getNamespace(scope.getOrDefault("", "")));
      }
      return new Element(name, Namespace.getNamespace(prefix, namespaceOf(prefix, scope)));
    } catch (IllegalNameException | IllegalDataException unusable) {
      return new Element("unnamed");
    }
  }

  private static String namespaceOf(String prefix, Map<String, String> scope) {
    String uri = scope.get(prefix);
    if (uri == null || uri.isEmpty()) uri = WELL_KNOWN.get(prefix.toLowerCase(Locale.ROOT));
    return uri == null ? UNDECLARED + prefix : uri;
  }

  /**
   * What Rome would misread in Atom: a link that gives its address as text instead of {@code href},
   * and base64 (Atom 0.3's mode) broken over lines and indented.
   */
  private static void repairAtom(Element e, Namespace atom) {
    if (e.getName().equals("link")
        && e.getNamespace().equals(atom)
        && e.getAttribute("href") == null
        && !e.getTextTrim().isEmpty()) {
      e.setAttribute("href", e.getTextTrim());
    }
    if ("base64".equalsIgnoreCase(e.getAttributeValue("mode"))) {
      e.setText(WHITESPACE.matcher(e.getText()).replaceAll(""));
    }
    for (Element c : e.getChildren()) repairAtom(c, atom);
  }

  /** Atom 1.0 or 0.3 by the root's namespace, else by its version attribute. */
  private static Namespace atomNamespace(Element feed) {
    if (feed.getNamespace().equals(ATOM_03)) return ATOM_03;
    if (feed.getNamespace().equals(ATOM_10)) return ATOM_10;
    return "0.3".equals(feed.getAttributeValue("version", "").strip()) ? ATOM_03 : ATOM_10;
  }

  /** The RSS namespace of an RDF feed: 0.90's or 1.0's as declared, else 1.0's. */
  private static Namespace rdfNamespace(Element rdf) {
    Element channel = null;
    for (Element c : rdf.getChildren()) if (c.getName().equalsIgnoreCase("channel")) channel = c;
    Namespace ns = channel == null ? Namespace.NO_NAMESPACE : channel.getNamespace();
    if (ns.getURI().equals(RSS_090) || ns.getURI().equals(RSS_10)) return ns;
    Namespace rss = Namespace.getNamespace(RSS_10);
    renamespace(rdf, ns, rss);
    return rss;
  }

  /** Moves the elements in namespace {@code from} to {@code to}, the root included. */
  private static void renamespace(Element e, Namespace from, Namespace to) {
    if (e.getNamespace().equals(from)) e.setNamespace(to);
    for (Element c : e.getChildren()) renamespace(c, from, to);
  }

  /** Elements of a local name that are not inside another one, in document order. */
  private static List<Element> outermost(Element root, String name, Namespace ns) {
    List<Element> found = new ArrayList<>();
    collect(root, name, ns, found);
    return found;
  }

  private static void collect(Element e, String name, Namespace ns, List<Element> found) {
    for (Element c : e.getChildren()) {
      if (c.getName().equals(name) && c.getNamespace().equals(ns)) found.add(c);
      else collect(c, name, ns, found);
    }
  }
}
