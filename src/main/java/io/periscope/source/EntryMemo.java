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
 */
public final class EntryMemo {
  /** The memo of no read: nothing is known. */
  public static final EntryMemo NONE = new EntryMemo(new byte[0], Map.of());

  private final byte[] context;
  private final Map<ByteBuffer, FeedReader.Entry> entries;

  private EntryMemo(byte[] context, Map<ByteBuffer, FeedReader.Entry> entries) {
    this.context = context;
    this.entries = entries;
  }

  /** The memo of a read in {@code context} whose elements of {@code keys} became {@code read}. */
  static EntryMemo of(byte[] context, List<byte[]> keys, List<FeedReader.Entry> read) {
    Map<ByteBuffer, FeedReader.Entry> entries = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) entries.put(ByteBuffer.wrap(keys.get(i)), read.get(i));
    return new EntryMemo(context, entries);
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

  /**
   * Roughly what it holds on the heap: its digests and map, the entries, and their strings as
   * {@code strings} counts them (a string an item shares is counted once there).
   */
  long bytes(ToLongFunction<String> strings) {
    long bytes = 64 + context.length;
    for (FeedReader.Entry e : entries.values()) {
      bytes += 200; // the map's node, the key's buffer and digest, the entry and its list
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
