package io.periscope.source;

import io.periscope.crypto.Sha256;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.jdom2.Attribute;
import org.jdom2.Content;
import org.jdom2.Element;
import org.jdom2.Namespace;

/**
 * What a feed's read leaves the next read of the same feed: the entries it mapped, each under the
 * digest of its entry element as Rome read it (before its dates were taken out), with the digest of
 * everything else an entry's mapping reads (its context): the document without its entries (and
 * without the space between them), once the feed's own dates are taken out, and the feed's final
 * URL. A feed that gained an item maps only the entry elements it did not read last time in the
 * same context ({@link FeedReader}); the rest read as they did.
 *
 * <p>Only a read whose every entry element became one entry (Rome's entries paired one to one with
 * the elements) leaves a memo: an entry it reads then depends on its element and its context alone.
 * The digests are SHA-256 of the elements' names, namespaces, attributes and content, each string
 * length prefixed, CDATA told from text.
 *
 * <p>A read whose text {@link RawEntries} told apart, and that needed no recovery, also leaves the
 * digest of its text outside the entries (the feed's own dates left out) and each entry's text's
 * digest: the next read whose context is the same text, and whose entries it knows by their text,
 * parses only the entries it does not know.
 */
public final class EntryMemo {
  /** The memo of no read: nothing is known. */
  public static final EntryMemo NONE =
      new EntryMemo(new byte[0], Map.of(), List.of(), new byte[0], Map.of());

  private final byte[] context;
  private final Map<ByteBuffer, FeedReader.Entry> entries;

  /** The digests of the read's entry elements, in its order. */
  private final List<ByteBuffer> order;

  /** The digest of the text outside the entries ({@link RawEntries}); empty where not told. */
  private final byte[] rawContext;

  /** The digest of each entry's text, to the digest of its element. */
  private final Map<ByteBuffer, ByteBuffer> raw;

  private EntryMemo(
      byte[] context,
      Map<ByteBuffer, FeedReader.Entry> entries,
      List<ByteBuffer> order,
      byte[] rawContext,
      Map<ByteBuffer, ByteBuffer> raw) {
    this.context = context;
    this.entries = entries;
    this.order = order;
    this.rawContext = rawContext;
    this.raw = raw;
  }

  /** The memo of a read in {@code context} whose elements of {@code keys} became {@code read}. */
  static EntryMemo of(byte[] context, List<byte[]> keys, List<FeedReader.Entry> read) {
    Map<ByteBuffer, FeedReader.Entry> entries = new HashMap<>();
    List<ByteBuffer> order = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      ByteBuffer key = ByteBuffer.wrap(keys.get(i));
      order.add(key);
      entries.put(key, read.get(i));
    }
    return new EntryMemo(context, entries, order, new byte[0], Map.of());
  }

  /**
   * This memo with the text of its read told apart: {@code rawKeys} the digests of the entries'
   * texts, one an element of the read; itself where they do not pair.
   */
  EntryMemo withText(byte[] rawContext, List<byte[]> rawKeys) {
    if (rawKeys.size() != order.size() || order.isEmpty()) return this;
    Map<ByteBuffer, ByteBuffer> raw = new HashMap<>();
    for (int i = 0; i < rawKeys.size(); i++) raw.put(ByteBuffer.wrap(rawKeys.get(i)), order.get(i));
    return new EntryMemo(context, entries, order, rawContext, raw);
  }

  /**
   * The entries this memo knows of texts whose digests are {@code rawKeys}, read with the context
   * of {@code rawContext}: null where unknown, and null for all in another context.
   */
  List<FeedReader.Entry> knownTexts(byte[] rawContext, List<byte[]> rawKeys) {
    if (raw.isEmpty() || !Arrays.equals(this.rawContext, rawContext)) return null;
    List<FeedReader.Entry> known = new ArrayList<>(rawKeys.size());
    for (byte[] k : rawKeys) {
      ByteBuffer key = raw.get(ByteBuffer.wrap(k));
      known.add(key == null ? null : entries.get(key));
    }
    return known;
  }

  /**
   * The memo of a read of the text whose entries' digests are {@code rawKeys}, in this memo's
   * context, where {@code parsed} read the entries this memo did not know ({@code known} has null
   * for them): each entry of {@code read} under its element's digest, a known one's as this memo
   * has it, a parsed one's as {@code parsed} does.
   */
  EntryMemo told(
      List<FeedReader.Entry> known,
      EntryMemo parsed,
      List<FeedReader.Entry> read,
      List<byte[]> rawKeys) {
    Map<ByteBuffer, FeedReader.Entry> entries = new HashMap<>();
    List<ByteBuffer> order = new ArrayList<>(read.size());
    Map<ByteBuffer, ByteBuffer> raw = new HashMap<>();
    int fresh = 0;
    for (int i = 0; i < read.size(); i++) {
      ByteBuffer rawKey = ByteBuffer.wrap(rawKeys.get(i));
      ByteBuffer key = known.get(i) == null ? parsed.order.get(fresh++) : this.raw.get(rawKey);
      order.add(key);
      entries.put(key, read.get(i));
      raw.put(rawKey, key);
    }
    return new EntryMemo(context, entries, order, rawContext, raw);
  }

  /** Whether {@code other} was read in the same context and pairs its entries with its elements. */
  boolean sameContext(EntryMemo other, int entries) {
    return Arrays.equals(context, other.context) && order.size() == entries;
  }

  /**
   * The entries this memo knows of {@code elements} (by identity), read in {@code context}; none in
   * another context.
   */
  Map<Element, FeedReader.Entry> known(byte[] context, List<Element> elements, List<byte[]> keys) {
    Map<Element, FeedReader.Entry> known = new IdentityHashMap<>();
    if (entries.isEmpty() || !Arrays.equals(this.context, context)) return known;
    for (int i = 0; i < elements.size(); i++) {
      FeedReader.Entry entry = entries.get(ByteBuffer.wrap(keys.get(i)));
      if (entry != null) known.put(elements.get(i), entry);
    }
    return known;
  }

  /** How many entries it knows (tests). */
  int size() {
    return entries.size();
  }

  /** How many entries it knows by their text (tests). */
  int texts() {
    return raw.size();
  }

  /**
   * Roughly what it holds on the heap: its digests and map, the entries, and their strings as
   * {@code strings} counts them (a string an item shares is counted once there).
   */
  long bytes(ToLongFunction<String> strings) {
    long bytes = 64 + context.length;
    for (FeedReader.Entry e : entries.values()) {
      // the maps' nodes, the keys' buffers and digests, the entry and its list
      bytes += raw.isEmpty() ? 200 : 300;
      for (String s : new String[] {e.id(), e.title(), e.link(), e.summary()})
        bytes += strings.applyAsLong(s);
      for (String s : e.enclosures()) bytes += strings.applyAsLong(s);
    }
    return bytes;
  }

  /** The digest of each entry element. */
  static List<byte[]> keys(List<Element> elements) {
    Written out = new Written();
    List<byte[]> keys = new ArrayList<>(elements.size());
    for (Element e : elements) {
      out.length = 0;
      out.element(e, Set.of());
      keys.add(out.digest());
    }
    return keys;
  }

  /** The digest of the document but {@code entries}, and of the feed's final URL. */
  static byte[] context(FeedDocument feed, String feedUrl) {
    Set<Element> entries = Collections.newSetFromMap(new IdentityHashMap<>());
    entries.addAll(feed.entries());
    Written out = new Written();
    out.container = feed.container();
    out.element(feed.document().getRootElement(), entries);
    out.text(String.valueOf(feedUrl));
    return out.digest();
  }

  /**
   * Elements written for their digest: each string as its length and its UTF-16 code units (no
   * charset to replace what it cannot encode), each node after a byte saying what it is.
   */
  private static final class Written {
    private byte[] bytes = new byte[4096];
    private int length;

    /** The element whose children the entries are: its space is left out. */
    private Element container;

    byte[] digest() {
      MessageDigest sha = Sha256.digest();
      sha.update(bytes, 0, length);
      return sha.digest();
    }

    void element(Element e, Set<Element> leftOut) {
      mark('<');
      text(e.getNamespacePrefix());
      text(e.getNamespaceURI());
      text(e.getName());
      for (Namespace ns : e.getAdditionalNamespaces()) {
        mark('n');
        text(ns.getPrefix());
        text(ns.getURI());
      }
      if (e.hasAttributes()) {
        for (Attribute a : e.getAttributes()) {
          mark('a');
          text(a.getNamespacePrefix());
          text(a.getNamespaceURI());
          text(a.getName());
          text(a.getValue());
        }
      }
      for (Content c : e.getContent()) {
        if (c instanceof Element child) {
          if (!leftOut.contains(child)) element(child, leftOut);
        } else if (e != container || !isSpace(c)) {
          mark((char) ('0' + c.getCType().ordinal()));
          text(c.getValue());
        }
      }
      mark('>');
    }

    /**
     * Space between the container's children: as many as the entries that were among them, and
     * nothing Rome maps an entry by.
     */
    private static boolean isSpace(Content c) {
      return c.getCType() == Content.CType.Text && c.getValue().isBlank();
    }

    private void mark(char what) {
      room(1);
      bytes[length++] = (byte) what;
    }

    void text(String text) {
      int n = text.length();
      room(4 + 2 * n);
      bytes[length++] = (byte) (n >>> 24);
      bytes[length++] = (byte) (n >>> 16);
      bytes[length++] = (byte) (n >>> 8);
      bytes[length++] = (byte) n;
      for (int i = 0; i < n; i++) {
        char c = text.charAt(i);
        bytes[length++] = (byte) (c >>> 8);
        bytes[length++] = (byte) c;
      }
    }

    private void room(int more) {
      if (length + more > bytes.length)
        bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + more));
    }
  }
}
