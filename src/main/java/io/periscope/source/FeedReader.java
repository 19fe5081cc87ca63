package io.periscope.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Reads RSS (0.9x, 1.0, 2.0), Atom (0.3, 1.0) and JSON Feed (1.0, 1.1) into entries, keeping every
 * entry a fault elsewhere leaves readable.
 *
 * <p>XML goes through jsoup's XML parser ({@link BudgetedParse}) instead of Rome: measured on the
 * real-world corpus (docs/feeds.md), Rome's strict XML parse lost whole feeds for one missing
 * closing tag, an undeclared prefix, a control character, a DOCTYPE or one element it could not
 * convert, while jsoup recovers each of them, reads no DTD and expands no declared entity, and
 * takes the element budget. What Rome added on top (the mapping of the formats' elements) is the
 * part written here: xml:base resolves relative links, an alternate link is the entry's link, and
 * enclosures and the formats' dates are read.
 */
public final class FeedReader {
  /** An entry as the feed gives it; links resolved, texts plain. */
  public record Entry(
      String id,
      String title,
      String link,
      String summary,
      Instant published,
      List<String> enclosures) {}

  /**
   * A read feed: its entries in document order and the recoveries it needed ({@code encoding},
   * {@code control-characters}, {@code markup}, {@code undeclared-prefix}, {@code unclosed}, {@code
   * cut}).
   */
  public record Read(List<Entry> entries, List<String> recoveries) {}

  /** Why a body is no feed. */
  public static final class NotAFeed extends Exception {
    NotAFeed(String message) {
      super(message, null, false, false);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CONTROL =
      Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]");
  private static final Pattern MARKUP = Pattern.compile("<[A-Za-z/!]|&[#A-Za-z]");
  private static final Pattern ABSOLUTE = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:");
  private static final Set<String> ROOTS = Set.of("rss", "rdf", "feed", "channel");

  private FeedReader() {}

  /**
   * Reads {@code body} fetched from {@code baseUrl} (the final URL, after redirects) at most {@code
   * maxEntries} entries and {@code maxElements} elements.
   */
  public static Read read(
      byte[] body, String contentType, String baseUrl, int maxEntries, int maxElements)
      throws NotAFeed {
    List<String> recoveries = new ArrayList<>();
    TextDecoding.Decoded decoded =
        TextDecoding.decode(body, contentType, TextDecoding.Declaration.XML_PROLOG);
    if (decoded.repaired()) recoveries.add("encoding");
    String text = decoded.text();
    if (looksLikeJson(text, contentType)) {
      return new Read(JsonFeed.read(text, baseUrl, maxEntries), recoveries);
    }
    String clean = CONTROL.matcher(text).replaceAll("");
    if (clean.length() != text.length()) recoveries.add("control-characters");
    BudgetedParse parse = BudgetedParse.xml(clean, baseUrl, maxElements);
    Element root = feedRoot(parse.document());
    if (root == null) throw new NotAFeed("not an RSS, Atom or JSON feed");
    if (parse.repairs() > 0) recoveries.add("markup");
    if (hasUndeclaredPrefix(parse.document())) recoveries.add("undeclared-prefix");
    if (parse.cut()) recoveries.add("cut");
    else if (!closes(clean, root)) recoveries.add("unclosed");
    boolean atom = local(root).equals("feed");
    List<Entry> entries = new ArrayList<>();
    for (Element e : outermost(root, atom ? "entry" : "item")) {
      if (entries.size() == maxEntries) break;
      entries.add(atom ? atomEntry(e, baseUrl) : rssItem(e, baseUrl));
    }
    return new Read(entries, recoveries);
  }

  /**
   * The document element when it is a feed's, else the first feed element inside it (a feed wrapped
   * in an XHTML page); an HTML page has none.
   */
  private static Element feedRoot(Document document) {
    for (Element e : document.getAllElements()) {
      if (e != document && ROOTS.contains(local(e))) return e;
    }
    return null;
  }

  /** JSON by its content, or by its type unless the content is markup (a mislabelled feed). */
  private static boolean looksLikeJson(String text, String contentType) {
    String start = text.stripLeading();
    if (start.startsWith("{")) return true;
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    return type.contains("json") && !start.startsWith("<");
  }

  private static Entry rssItem(Element item, String feedUrl) {
    String base = base(item, feedUrl);
    String title = plain(first(item, "title", true));
    if (title == null) title = plain(first(item, "title", false));
    String link = null;
    for (Element l : children(item, "link")) {
      if (!l.hasAttr("href") && !l.text().isBlank()) {
        link = l.text().strip();
        break;
      }
    }
    if (link == null) link = alternate(item, feedUrl);
    if (link == null) link = blankToNull(item.attr("href")); // CDF: <ITEM HREF="...">
    Element guid = first(item, "guid", false);
    String id = guid == null ? null : guid.text().strip();
    if (link == null && guid != null && !"false".equalsIgnoreCase(guid.attr("isPermaLink"))) {
      link = looksLikeUrl(id) ? id : null;
    }
    if (id == null || id.isEmpty()) id = blankToNull(item.attr("rdf:about"));
    List<String> enclosures = new ArrayList<>();
    for (Element e : children(item, "enclosure")) addUrl(enclosures, e.attr("url"), base);
    enclosures.addAll(linkHrefs(item, "enclosure", feedUrl));
    String summary = html(first(item, "description", false));
    if (summary == null) summary = html(first(item, "encoded", false));
    if (summary == null) summary = html(first(item, "summary", false));
    Instant published =
        date(item, "pubdate", "date", "published", "issued", "created", "updated", "modified");
    return new Entry(
        blankToNull(id), title, resolve(base, link), summary, published, List.copyOf(enclosures));
  }

  private static Entry atomEntry(Element entry, String feedUrl) {
    String title = atomText(first(entry, "title", false));
    Element id = first(entry, "id", false);
    String summary = atomText(first(entry, "summary", false));
    if (summary == null) summary = atomText(first(entry, "content", false));
    Instant published = date(entry, "published", "issued", "created", "updated", "modified");
    return new Entry(
        id == null ? null : blankToNull(id.text()),
        title,
        alternate(entry, feedUrl),
        summary,
        published,
        linkHrefs(entry, "enclosure", feedUrl));
  }

  /**
   * The first alternate link (a link without rel is one), an HTML one before others. A link without
   * {@code href} whose text is the address counts too (a common mistake).
   */
  private static String alternate(Element entry, String feedUrl) {
    String any = null;
    for (Element l : children(entry, "link")) {
      String rel = l.attr("rel").strip().toLowerCase(Locale.ROOT);
      if (!rel.isEmpty() && !rel.equals("alternate")) continue;
      if (!l.hasAttr("href") && rel.isEmpty()) continue; // RSS's own <link> is read as text
      String href = resolve(base(l, feedUrl), href(l));
      if (href == null) continue;
      String type = l.attr("type").toLowerCase(Locale.ROOT);
      if (type.isEmpty() || type.contains("html")) return href;
      if (any == null) any = href;
    }
    return any;
  }

  private static List<String> linkHrefs(Element entry, String rel, String feedUrl) {
    List<String> hrefs = new ArrayList<>();
    for (Element l : children(entry, "link")) {
      if (rel.equalsIgnoreCase(l.attr("rel").strip())) addUrl(hrefs, href(l), base(l, feedUrl));
    }
    return hrefs;
  }

  private static String href(Element link) {
    return link.hasAttr("href") ? link.attr("href") : link.text();
  }

  private static void addUrl(List<String> urls, String href, String base) {
    String resolved = resolve(base, blankToNull(href));
    if (resolved != null && !urls.contains(resolved)) urls.add(resolved);
  }

  /** An Atom text construct as plain text: markup (html, xhtml) and base64 (Atom 0.3) undone. */
  private static String atomText(Element e) {
    if (e == null) return null;
    String type = e.attr("type").toLowerCase(Locale.ROOT);
    if ("base64".equalsIgnoreCase(e.attr("mode"))) {
      try {
        String decoded =
            new String(Base64.getMimeDecoder().decode(e.text().strip()), StandardCharsets.UTF_8);
        return type.contains("html") ? plainOfHtml(decoded) : normalized(decoded);
      } catch (IllegalArgumentException notBase64) {
        return normalized(e.text());
      }
    }
    if (isBinaryType(type)) { // Atom 1.0: a type that is no text is base64 (RFC 4287, 4.1.3.3)
      try {
        return normalized(
            new String(Base64.getMimeDecoder().decode(e.text().strip()), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException notBase64) {
        return normalized(e.text());
      }
    }
    if (type.equals("xhtml") || !e.children().isEmpty()) return normalized(e.text());
    if (type.contains("html") || type.isEmpty() && MARKUP.matcher(e.text()).find())
      return plainOfHtml(e.text());
    return normalized(e.text());
  }

  private static boolean isBinaryType(String type) {
    return type.contains("/")
        && !type.startsWith("text/")
        && !type.endsWith("xml")
        && !type.contains("html");
  }

  /** An RSS text as plain text: markup escaped into it, or written in it, is taken out. */
  private static String plain(Element e) {
    if (e == null) return null;
    if (!e.children().isEmpty()) return normalized(e.text());
    String text = e.wholeText();
    return MARKUP.matcher(text).find() ? plainOfHtml(text) : normalized(text);
  }

  /** A description or content: HTML in any case (escaped or CDATA). */
  private static String html(Element e) {
    if (e == null) return null;
    if (!e.children().isEmpty()) return normalized(e.text());
    return plainOfHtml(e.wholeText());
  }

  private static String plainOfHtml(String html) {
    return normalized(Jsoup.parseBodyFragment(html).text());
  }

  private static String normalized(String text) {
    if (text == null) return null;
    String t = CONTROL.matcher(text).replaceAll("").replaceAll("\\s+", " ").strip();
    return t.isEmpty() ? null : t;
  }

  private static Instant date(Element entry, String... names) {
    for (String name : names) {
      for (Element d : children(entry, name)) {
        Optional<Instant> at = FeedDates.parse(d.text());
        if (at.isPresent()) return at.get();
      }
    }
    return null;
  }

  /**
   * The base URI in scope at {@code e}: the xml:base attributes from the document down to {@code
   * e}, each resolved against the one above, starting from the feed's final URL.
   */
  private static String base(Element e, String feedUrl) {
    List<String> bases = new ArrayList<>();
    for (Element at = e; at != null; at = at.parent()) {
      if (at.hasAttr("xml:base")) bases.add(at.attr("xml:base").strip());
    }
    String base = feedUrl;
    for (int i = bases.size() - 1; i >= 0; i--) {
      String resolved = resolve(base, bases.get(i)); // an empty xml:base is the base above
      if (resolved != null) base = resolved;
    }
    return base;
  }

  /**
   * {@code href} against {@code base}; an absolute one, and one that cannot be resolved, as
   * written. OkHttp resolves against http(s) leniently (it escapes what RFC 3986 does not allow, as
   * browsers do); other bases go through {@link URI}. An empty {@code href} is no link: resolved,
   * it would make the feed itself the item's article.
   */
  static String resolve(String base, String href) {
    if (href == null) return null;
    String h = href.strip();
    if (h.isEmpty()) return null;
    if (ABSOLUTE.matcher(h).lookingAt()) return h; // as the feed wrote it
    HttpUrl httpBase = base == null ? null : HttpUrl.parse(base);
    HttpUrl resolved = httpBase == null ? null : httpBase.resolve(h);
    if (resolved != null) return resolved.toString();
    try {
      URI ref = new URI(h.replace(" ", "%20"));
      if (ref.isAbsolute() || base == null) return ref.toString();
      return new URI(base.replace(" ", "%20")).resolve(ref).toString();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return h;
    }
  }

  private static boolean looksLikeUrl(String text) {
    return text != null && (text.startsWith("http://") || text.startsWith("https://"));
  }

  /** Entries or items that are not inside another one, in document order. */
  private static List<Element> outermost(Element root, String name) {
    List<Element> found = new ArrayList<>();
    for (Element e : root.getAllElements()) {
      if (!local(e).equals(name)) continue;
      boolean nested = false;
      for (Element up = e.parent(); up != null && up != root; up = up.parent()) {
        if (local(up).equals(name)) {
          nested = true;
          break;
        }
      }
      if (!nested) found.add(e);
    }
    return found;
  }

  /** Children by local name, whatever their prefix. */
  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Element c : parent.children()) if (local(c).equals(name)) found.add(c);
    return found;
  }

  /** The first child by local name; with {@code unprefixed}, only one without a prefix. */
  private static Element first(Element parent, String name, boolean unprefixed) {
    for (Element c : parent.children()) {
      if (local(c).equals(name) && (!unprefixed || c.tagName().indexOf(':') < 0)) return c;
    }
    return null;
  }

  static String local(Element e) {
    String name = e.tagName();
    return name.substring(name.indexOf(':') + 1).toLowerCase(Locale.ROOT);
  }

  private static boolean hasUndeclaredPrefix(Document document) {
    Set<String> declared = new HashSet<>(Set.of("xml", "xmlns"));
    Set<String> used = new LinkedHashSet<>();
    for (Element e : document.getAllElements()) {
      for (Attribute a : e.attributes()) {
        if (a.getKey().startsWith("xmlns:")) declared.add(a.getKey().substring(6));
      }
      int colon = e.tagName().indexOf(':');
      if (colon > 0) used.add(e.tagName().substring(0, colon));
    }
    return !declared.containsAll(used);
  }

  /** Whether the text ends with the root's end tag (comments and space may follow). */
  private static boolean closes(String text, Element root) {
    String end = "</" + root.tagName();
    int at = text.lastIndexOf(end);
    return at >= 0 && text.indexOf('>', at) >= 0;
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }

  /**
   * JSON Feed 1.0 and 1.1: {@code version}, {@code items} and their fields as the format names
   * them.
   */
  static final class JsonFeed {
    private JsonFeed() {}

    static List<Entry> read(String text, String baseUrl, int maxEntries) throws NotAFeed {
      JsonNode root;
      try {
        root = JSON.readTree(text);
      } catch (JsonProcessingException e) {
        throw new NotAFeed("not a JSON feed (unreadable JSON)");
      }
      if (root == null
          || !root.path("version").asText("").startsWith("https://jsonfeed.org/version/")
          || !root.path("items").isArray()) {
        throw new NotAFeed("not a JSON feed (no jsonfeed.org version and items)");
      }
      List<Entry> entries = new ArrayList<>();
      for (JsonNode item : root.path("items")) {
        if (entries.size() == maxEntries) break;
        if (!item.isObject()) continue;
        String summary = normalized(item.path("summary").asText(null));
        if (summary == null) summary = normalized(item.path("content_text").asText(null));
        if (summary == null) {
          String html = item.path("content_html").asText(null);
          summary = html == null ? null : plainOfHtml(html);
        }
        List<String> enclosures = new ArrayList<>();
        for (JsonNode a : item.path("attachments"))
          addUrl(enclosures, a.path("url").asText(null), baseUrl);
        String published = item.path("date_published").asText(null);
        if (published == null) published = item.path("date_modified").asText(null);
        entries.add(
            new Entry(
                blankToNull(item.path("id").isValueNode() ? item.path("id").asText() : null),
                normalized(item.path("title").asText(null)),
                resolve(baseUrl, blankToNull(item.path("url").asText(null))),
                summary,
                FeedDates.parse(published).orElse(null),
                List.copyOf(enclosures)));
      }
      return entries;
    }
  }
}
