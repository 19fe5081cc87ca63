package io.periscope.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rometools.rome.feed.WireFeed;
import com.rometools.rome.feed.atom.Feed;
import com.rometools.rome.feed.atom.Link;
import com.rometools.rome.feed.module.DCModule;
import com.rometools.rome.feed.module.Module;
import com.rometools.rome.feed.rss.Channel;
import com.rometools.rome.feed.rss.Enclosure;
import com.rometools.rome.feed.rss.Guid;
import com.rometools.rome.feed.rss.Item;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.WireFeedInput;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import org.jdom2.Namespace;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Reads RSS (0.9x, 1.0, 2.0), Atom (0.3, 1.0) and JSON Feed (1.0, 1.1) into entries, keeping every
 * entry a fault elsewhere leaves readable.
 *
 * <p>XML is parsed once, by jsoup's lenient parser within the element budget ({@link
 * BudgetedParse}): it recovers from a missing end tag, an undeclared prefix or a stray {@code &},
 * reads no DTD and expands no declared entity, where a strict parse loses the whole feed. The
 * result goes to Rome as a JDOM document ({@link FeedDocument}), and Rome maps the formats and
 * their modules (Dublin Core dates, {@code content:encoded}) to its model; its entries become
 * entries here. Rome's values are then made what a watch needs: texts plain, links resolved against
 * the {@code xml:base} in scope and the feed's final URL, and dates read by {@link FeedDates}
 * before Rome's own (which misreads some). JSON Feed, which Rome does not read, is mapped here.
 */
public final class FeedReader {
  /**
   * An entry as the feed gives it; links resolved, texts plain. The summary is the start of the
   * entry's text that an item keeps ({@link ItemBounds#MAX_SUMMARY_CHARS}); the title is whole, as
   * an entry's identity is made of it.
   */
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
   * cut}, {@code unmappable}: an entry Rome could not map was left out).
   */
  public record Read(List<Entry> entries, List<String> recoveries) {}

  /** Why a body is no feed. */
  public static final class NotAFeed extends Exception {
    NotAFeed(String message) {
      super(message, null, false, false);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Rome's reader keeps no state of a build: one serves every feed. */
  private static final WireFeedInput ROME = new WireFeedInput(false, Locale.ROOT);

  private static final Pattern MARKUP = Pattern.compile("<[A-Za-z/!]|&[#A-Za-z]");
  private static final Pattern ABSOLUTE = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:");
  private static final Set<String> ROOTS = Set.of("rss", "rdf", "feed", "channel");
  private static final List<String> RSS_DATES =
      List.of("pubDate", "date", "published", "issued", "created", "updated", "modified");
  private static final List<String> ATOM_DATES =
      List.of("published", "issued", "created", "updated", "modified");

  private FeedReader() {}

  /** A read, and what it leaves the next read of the same feed. */
  public record Reading(Read read, EntryMemo memo) {}

  /**
   * Reads {@code body} fetched from {@code baseUrl} (the final URL, after redirects) at most {@code
   * maxEntries} entries and {@code maxElements} elements.
   */
  public static Read read(
      byte[] body, String contentType, String baseUrl, int maxEntries, int maxElements)
      throws NotAFeed {
    return read(body, contentType, baseUrl, maxEntries, maxElements, EntryMemo.NONE).read();
  }

  /**
   * Reads {@code body} as above, given {@code last}, the memo of the last read of the same feed: an
   * entry element it knows in the same context reads as it did then, and Rome maps only the others
   * (a feed that gained an item costs about that item). Before that, where {@link RawEntries} tells
   * the entries apart in the text and the text outside them is last time's, only a document of that
   * text and the entries the memo does not know by their text is parsed. The read is the whole
   * read's all the same: where mapping the others fails, or Rome's entries do not pair with them,
   * the whole document is mapped.
   */
  public static Reading read(
      byte[] body,
      String contentType,
      String baseUrl,
      int maxEntries,
      int maxElements,
      EntryMemo last)
      throws NotAFeed {
    List<String> recoveries = new ArrayList<>();
    TextDecoding.Decoded decoded =
        TextDecoding.decode(body, contentType, TextDecoding.Declaration.XML_PROLOG);
    if (decoded.repaired()) recoveries.add("encoding");
    String text = decoded.text();
    if (looksLikeJson(text, contentType)) {
      return new Reading(
          new Read(JsonFeed.read(text, baseUrl, maxEntries), recoveries), EntryMemo.NONE);
    }
    RawEntries told = decoded.repaired() ? null : RawEntries.of(text);
    if (told != null && (told.size() > maxEntries || 2 * told.elements() > maxElements))
      told = null;
    byte[] rawContext = told == null ? null : told.context(baseUrl, maxEntries, maxElements);
    List<byte[]> rawKeys = told == null ? null : told.keys();
    if (told != null) {
      Reading known = readKnown(told, rawContext, rawKeys, baseUrl, maxEntries, maxElements, last);
      if (known != null) return known;
    }
    String clean = ItemText.withoutControl(text);
    if (clean.length() != text.length()) recoveries.add("control-characters");
    Reading whole = parsed(clean, recoveries, baseUrl, maxEntries, maxElements, last);
    if (told == null || !whole.read().recoveries().isEmpty()) return whole;
    return new Reading(whole.read(), whole.memo().withText(rawContext, rawKeys));
  }

  /**
   * The read of a text whose context {@code last} read, where it knows entries by their text: a
   * document of the context and the entries it does not know is parsed, and known entries read as
   * they did. Null where that is not sure to be the whole read: another context, a parse that
   * needed a recovery or whose entries do not pair with the ones it was given.
   */
  private static Reading readKnown(
      RawEntries told,
      byte[] rawContext,
      List<byte[]> rawKeys,
      String baseUrl,
      int maxEntries,
      int maxElements,
      EntryMemo last) {
    List<Entry> known = last.knownTexts(rawContext, rawKeys);
    if (known == null) return null;
    List<Integer> fresh = new ArrayList<>();
    for (int i = 0; i < known.size(); i++) if (known.get(i) == null) fresh.add(i);
    EntryMemo parsedMemo = EntryMemo.NONE;
    List<Entry> entries = known;
    if (!fresh.isEmpty()) {
      String text = told.with(fresh);
      // the memo's read had no control character: the new entries are all that may have one
      if (ItemText.withoutControl(text).length() != text.length()) return null;
      Reading parsed;
      try {
        parsed = parsed(text, new ArrayList<>(), baseUrl, maxEntries, maxElements, last);
      } catch (NotAFeed notAlone) {
        return null;
      }
      if (!parsed.read().recoveries().isEmpty()
          || parsed.read().entries().size() != fresh.size()
          || !parsed.memo().sameContext(last, fresh.size())) return null;
      parsedMemo = parsed.memo();
      entries = new ArrayList<>(known.size());
      Iterator<Entry> next = parsed.read().entries().iterator();
      for (Entry e : known) entries.add(e == null ? next.next() : e);
    }
    return new Reading(
        new Read(entries, new ArrayList<>()), last.told(known, parsedMemo, entries, rawKeys));
  }

  /** The read of {@code clean}, the text without control characters, parsed. */
  private static Reading parsed(
      String clean,
      List<String> recoveries,
      String baseUrl,
      int maxEntries,
      int maxElements,
      EntryMemo last)
      throws NotAFeed {
    BudgetedParse parse = BudgetedParse.xml(clean, baseUrl, maxElements);
    // one list of the elements for both walks: building it is a walk of the whole document
    List<Element> all = parse.document().getAllElements();
    Element root = feedRoot(parse.document(), all);
    if (root == null) throw new NotAFeed("not an RSS, Atom or JSON feed");
    if (parse.repairs() > 0) recoveries.add("markup");
    if (hasUndeclaredPrefix(all)) recoveries.add("undeclared-prefix");
    if (parse.cut()) recoveries.add("cut");
    else if (!closes(clean, root)) recoveries.add("unclosed");
    FeedDocument feed = FeedDocument.of(root, baseUrl, maxEntries);
    List<org.jdom2.Element> elements = feed.entries();
    List<byte[]> keys = EntryMemo.keys(elements); // before their dates are taken out
    feed.dropFeedDates();
    byte[] context = EntryMemo.context(feed, baseUrl);
    Map<org.jdom2.Element, Entry> known = last.known(context, elements, keys);
    List<org.jdom2.Element> fresh = elements.stream().filter(e -> !known.containsKey(e)).toList();
    Map<org.jdom2.Element, Instant> dates = readDates(fresh);
    if (!known.isEmpty()) {
      try {
        feed.withEntries(fresh);
        Mapped mapped =
            fresh.isEmpty() ? new Mapped(List.of(), true) : map(feed, fresh, dates, baseUrl);
        if (mapped.paired()) {
          List<Entry> entries = new ArrayList<>();
          Iterator<Entry> next = mapped.entries().iterator();
          for (org.jdom2.Element e : elements)
            entries.add(known.containsKey(e) ? known.get(e) : next.next());
          return new Reading(new Read(entries, recoveries), EntryMemo.of(context, keys, entries));
        }
      } catch (FeedException | RuntimeException unknown) {
        // the feed's part or a new entry is at fault: the whole mapping below says which
      }
      feed.withEntries(elements);
      dates.putAll(readDates(List.copyOf(known.keySet())));
    }
    try {
      Mapped whole = map(feed, elements, dates, baseUrl);
      EntryMemo memo =
          whole.paired() ? EntryMemo.of(context, keys, whole.entries()) : EntryMemo.NONE;
      return new Reading(new Read(whole.entries(), recoveries), memo);
    } catch (FeedException | RuntimeException whole) {
      // Rome gives up on a document for one element it cannot convert: the feed's own elements
      // are dropped and each entry is mapped on its own, so a fault loses its entry, not the feed.
      feed.dropFeedElements();
      List<Entry> entries = new ArrayList<>();
      for (org.jdom2.Element e : elements) {
        feed.withEntries(List.of(e));
        try {
          entries.addAll(map(feed, List.of(e), dates, baseUrl).entries());
        } catch (FeedException | RuntimeException unmappable) {
          // this entry is the fault
        }
      }
      if (entries.isEmpty()) {
        throw new NotAFeed("not an RSS or Atom feed Rome can map (" + whole.getMessage() + ")");
      }
      recoveries.add("unmappable");
      return new Reading(new Read(entries, recoveries), EntryMemo.NONE);
    }
  }

  /**
   * The dates {@link FeedDates} reads of the entries, by entry element. Rome's date of an entry
   * counts only where this reads none, and Rome's parser (a {@code SimpleDateFormat} built for each
   * of a dozen patterns it tries, per date) was most of a small feed's reading: the date elements
   * of the entries read here, and the feed's own (never read), are taken out before Rome maps.
   */
  private static Map<org.jdom2.Element, Instant> readDates(List<org.jdom2.Element> entries) {
    Map<org.jdom2.Element, Instant> dates = new IdentityHashMap<>();
    for (org.jdom2.Element e : entries) {
      Instant at = date(e, e.getName().equals("entry") ? ATOM_DATES : RSS_DATES);
      if (at == null) continue;
      dates.put(e, at);
      FeedDocument.dropDates(e);
    }
    return dates;
  }

  /**
   * Entries Rome mapped; {@code paired}: Rome's entries were the document's entry elements one to
   * one, so each entry is its element's alone.
   */
  private record Mapped(List<Entry> entries, boolean paired) {}

  /**
   * Rome's mapping of the feed document, whose entry elements are now {@code elements}; {@code
   * dates} are those {@link FeedDates} read.
   */
  private static Mapped map(
      FeedDocument feed,
      List<org.jdom2.Element> elements,
      Map<org.jdom2.Element, Instant> dates,
      String baseUrl)
      throws FeedException {
    WireFeed wire = ROME.build(feed.document());
    List<Entry> entries = new ArrayList<>();
    int mapped = -1;
    if (wire instanceof Channel channel) {
      List<Item> items = channel.getItems();
      mapped = items.size();
      for (int i = 0; i < items.size() && i < elements.size(); i++) {
        entries.add(rssItem(items.get(i), elements.get(i), dates.get(elements.get(i)), baseUrl));
      }
    } else if (wire instanceof Feed atom) {
      List<com.rometools.rome.feed.atom.Entry> atomEntries = atom.getEntries();
      mapped = atomEntries.size();
      for (int i = 0; i < atomEntries.size() && i < elements.size(); i++) {
        entries.add(
            atomEntry(atomEntries.get(i), elements.get(i), dates.get(elements.get(i)), baseUrl));
      }
    }
    return new Mapped(entries, mapped == elements.size());
  }

  /**
   * The document element when it is a feed's, else the first feed element inside it (a feed wrapped
   * in an XHTML page); an HTML page has none. {@code all}: the document's elements.
   */
  private static Element feedRoot(Document document, List<Element> all) {
    for (Element e : all) {
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

  /**
   * Rome's RSS item as an entry; what Rome leaves out is looked for in the item's element. {@code
   * published}: the date {@link FeedDates} read, else null (Rome's then).
   */
  private static Entry rssItem(Item item, org.jdom2.Element e, Instant published, String feedUrl) {
    String base = base(e, feedUrl);
    String link = blankToNull(item.getLink());
    if (link == null) link = alternate(e);
    if (link == null) link = cdfHref(e);
    Guid guid = item.getGuid();
    String id = guid == null ? null : blankToNull(guid.getValue());
    if (link == null && guid != null && guid.isPermaLink() && looksLikeUrl(id)) link = id;
    if (id == null) id = blankToNull(e.getAttributeValue("about", FeedDocument.RDF));
    List<String> enclosures = new ArrayList<>();
    for (Enclosure enclosure : item.getEnclosures()) addUrl(enclosures, enclosure.getUrl(), base);
    enclosures.addAll(linkHrefs(e, "enclosure", feedUrl));
    String summary =
        item.getDescription() == null ? null : summary(item.getDescription().getValue());
    if (summary == null && item.getContent() != null)
      summary = summary(item.getContent().getValue());
    if (summary == null) summary = summary(childText(e, "summary"));
    if (published == null) published = instant(item.getPubDate());
    if (published == null) published = dcDate(item.getModule(DCModule.URI));
    return new Entry(
        id,
        plain(item.getTitle()),
        resolve(base, link),
        summary,
        published,
        List.copyOf(enclosures));
  }

  /**
   * Rome's Atom entry as an entry; its links resolved against the entry's xml:base. {@code
   * published}: the date {@link FeedDates} read, else null (Rome's then).
   */
  private static Entry atomEntry(
      com.rometools.rome.feed.atom.Entry entry,
      org.jdom2.Element e,
      Instant published,
      String feedUrl) {
    String summary = atomText(entry.getSummary(), ItemBounds.MAX_SUMMARY_CHARS);
    if (summary == null && !entry.getContents().isEmpty()) {
      summary = atomText(entry.getContents().get(0), ItemBounds.MAX_SUMMARY_CHARS);
    }
    if (published == null) published = instant(entry.getPublished());
    if (published == null) published = instant(entry.getIssued());
    if (published == null) published = instant(entry.getCreated());
    if (published == null) published = instant(entry.getUpdated());
    if (published == null) published = instant(entry.getModified());
    if (published == null) published = dcDate(entry.getModule(DCModule.URI));
    List<String> enclosures = new ArrayList<>();
    for (Link l : entry.getOtherLinks()) {
      if ("enclosure".equalsIgnoreCase(strip(l.getRel())))
        addUrl(enclosures, l.getHref(), linkBase(e, l, feedUrl));
    }
    return new Entry(
        blankToNull(entry.getId()),
        atomText(entry.getTitleEx(), Integer.MAX_VALUE),
        alternate(entry, e, feedUrl),
        summary,
        published,
        List.copyOf(enclosures));
  }

  /** The first alternate link, an HTML one before others. */
  private static String alternate(
      com.rometools.rome.feed.atom.Entry entry, org.jdom2.Element e, String feedUrl) {
    String any = null;
    for (Link l : entry.getAlternateLinks()) {
      String href = resolve(linkBase(e, l, feedUrl), l.getHref());
      if (href == null) continue;
      String type = strip(l.getType()).toLowerCase(Locale.ROOT);
      if (type.isEmpty() || type.contains("html")) return href;
      if (any == null) any = href;
    }
    return any;
  }

  /** The base of an Atom link: its own xml:base, found on the element that carries its href. */
  private static String linkBase(org.jdom2.Element entry, Link link, String feedUrl) {
    for (org.jdom2.Element l : entry.getChildren()) {
      if (l.getName().equals("link")
          && Objects.equals(l.getAttributeValue("href"), link.getHref())) {
        return base(l, feedUrl);
      }
    }
    return base(entry, feedUrl);
  }

  /**
   * An RSS item's alternate {@code atom:link} (or a link element with an {@code href}), which Rome
   * leaves among the foreign markup.
   */
  private static String alternate(org.jdom2.Element item) {
    for (org.jdom2.Element l : item.getChildren()) {
      if (!l.getName().equalsIgnoreCase("link") || l.getAttribute("href") == null) continue;
      String rel = strip(l.getAttributeValue("rel")).toLowerCase(Locale.ROOT);
      if (rel.isEmpty() || rel.equals("alternate")) {
        String href = blankToNull(l.getAttributeValue("href"));
        if (href != null) return resolve(base(l, null), href);
      }
    }
    return null;
  }

  /** CDF: {@code <ITEM HREF="...">}, the attribute in any case. */
  private static String cdfHref(org.jdom2.Element item) {
    for (org.jdom2.Attribute a : item.getAttributes()) {
      if (a.getName().equalsIgnoreCase("href")) return blankToNull(a.getValue());
    }
    return null;
  }

  private static List<String> linkHrefs(org.jdom2.Element entry, String rel, String feedUrl) {
    List<String> hrefs = new ArrayList<>();
    for (org.jdom2.Element l : entry.getChildren()) {
      if (l.getName().equalsIgnoreCase("link")
          && rel.equalsIgnoreCase(strip(l.getAttributeValue("rel")))) {
        addUrl(hrefs, l.getAttributeValue("href"), base(l, feedUrl));
      }
    }
    return hrefs;
  }

  private static void addUrl(List<String> urls, String href, String base) {
    String resolved = resolve(base, blankToNull(href));
    if (resolved != null && !urls.contains(resolved)) urls.add(resolved);
  }

  /**
   * An Atom text construct as plain text, cut to {@code maxChars}: markup (html, xhtml) taken out.
   * Rome has undone base64 (Atom 0.3's mode); Atom 1.0 gives a type that is no text in base64 (RFC
   * 4287, 4.1.3.3).
   */
  private static String atomText(com.rometools.rome.feed.atom.Content c, int maxChars) {
    if (c == null || c.getValue() == null) return null;
    String type = strip(c.getType()).toLowerCase(Locale.ROOT);
    String value = c.getValue();
    if (isBinaryType(type) && !"base64".equalsIgnoreCase(c.getMode())) {
      try {
        return ItemBounds.cut(
            ItemText.normalized(
                new String(Base64.getMimeDecoder().decode(value.strip()), StandardCharsets.UTF_8)),
            maxChars);
      } catch (IllegalArgumentException notBase64) {
        return ItemBounds.cut(ItemText.normalized(value), maxChars);
      }
    }
    if (type.contains("html") || MARKUP.matcher(value).find())
      return ItemText.ofHtml(value, maxChars);
    return ItemBounds.cut(ItemText.normalized(value), maxChars);
  }

  private static boolean isBinaryType(String type) {
    return type.contains("/")
        && !type.startsWith("text/")
        && !type.endsWith("xml")
        && !type.contains("html");
  }

  /** An RSS text as plain text: markup escaped into it, or written in it, is taken out. */
  private static String plain(String text) {
    if (text == null) return null;
    return MARKUP.matcher(text).find() ? ItemText.ofHtml(text) : ItemText.normalized(text);
  }

  /** A description or content: HTML in any case (escaped or CDATA), as much as an item keeps. */
  private static String summary(String html) {
    return ItemText.ofHtml(html, ItemBounds.MAX_SUMMARY_CHARS);
  }

  private static String childText(org.jdom2.Element e, String name) {
    for (org.jdom2.Element c : e.getChildren())
      if (c.getName().equalsIgnoreCase(name)) return c.getText();
    return null;
  }

  private static Instant instant(Date date) {
    return date == null ? null : date.toInstant();
  }

  private static Instant dcDate(Module module) {
    return module instanceof DCModule dc ? instant(dc.getDate()) : null;
  }

  /**
   * The first date of the named elements (any prefix, any case) that {@link FeedDates} reads. It
   * comes before Rome's: Rome's parser leaves forms real feeds use null ({@code 8:19 pm CEST},
   * {@code 2020/1/10 14:33:00}) and reads more than three sub-second digits as milliseconds, moving
   * {@code 05.123456} by two minutes; Rome's date counts where this reads none.
   */
  private static Instant date(org.jdom2.Element entry, List<String> names) {
    for (String name : names) {
      for (org.jdom2.Element d : entry.getChildren()) {
        if (!d.getName().equalsIgnoreCase(name)) continue;
        Optional<Instant> at = FeedDates.parse(d.getText());
        if (at.isPresent()) return at.get();
      }
    }
    return null;
  }

  /**
   * The base URI in scope at {@code e}: the xml:base attributes from the document down to {@code
   * e}, each resolved against the one above; the root's is absolute ({@link FeedDocument}).
   */
  private static String base(org.jdom2.Element e, String feedUrl) {
    List<String> bases = new ArrayList<>();
    for (org.jdom2.Element at = e; at != null; at = at.getParentElement()) {
      String b = at.getAttributeValue("base", Namespace.XML_NAMESPACE);
      if (b != null) bases.add(b.strip());
    }
    String base = feedUrl;
    for (int i = bases.size() - 1; i >= 0; i--) {
      String resolved = resolve(base, bases.get(i)); // an empty xml:base is the base above
      if (resolved != null) base = resolved;
    }
    return base;
  }

  private static String strip(String text) {
    return text == null ? "" : text.strip();
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

  static String local(Element e) {
    String name = e.tagName();
    return name.substring(name.indexOf(':') + 1).toLowerCase(Locale.ROOT);
  }

  /** Whether {@code all}, a document's elements, use a prefix the document does not declare. */
  private static boolean hasUndeclaredPrefix(List<Element> all) {
    Set<String> declared = new HashSet<>(Set.of("xml", "xmlns"));
    Set<String> used = new LinkedHashSet<>();
    for (Element e : all) {
      // attributes() would give each element without any an empty set of its own
      if (e.attributesSize() > 0) {
        for (Attribute a : e.attributes()) {
          if (a.getKey().startsWith("xmlns:")) declared.add(a.getKey().substring(6));
        }
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
        String summary = ItemText.normalized(item.path("summary").asText(null));
        if (summary == null) summary = ItemText.normalized(item.path("content_text").asText(null));
        if (summary == null) summary = summary(item.path("content_html").asText(null));
        summary = ItemBounds.cut(summary, ItemBounds.MAX_SUMMARY_CHARS);
        List<String> enclosures = new ArrayList<>();
        for (JsonNode a : item.path("attachments"))
          addUrl(enclosures, a.path("url").asText(null), baseUrl);
        String published = item.path("date_published").asText(null);
        if (published == null) published = item.path("date_modified").asText(null);
        entries.add(
            new Entry(
                blankToNull(item.path("id").isValueNode() ? item.path("id").asText() : null),
                ItemText.normalized(item.path("title").asText(null)),
                resolve(baseUrl, blankToNull(item.path("url").asText(null))),
                summary,
                FeedDates.parse(published).orElse(null),
                List.copyOf(enclosures)));
      }
      return entries;
    }
  }
}
