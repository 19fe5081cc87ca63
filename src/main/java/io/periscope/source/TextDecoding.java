package io.periscope.source;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.MediaType;

/**
 * Bytes to text for feeds and pages, in this order: a byte order mark decides first (UTF-8,
 * UTF-16LE/BE, UTF-32LE/BE), then the HTTP charset, then what the document declares (the XML
 * prolog's {@code encoding}, an HTML {@code <meta charset>}); an unknown or unsupported name is
 * passed over. Undeclared bytes are UTF-8 when they are valid UTF-8, else windows-1252 (what
 * browsers and feed readers assume of undeclared Latin text). Text that is not valid in the chosen
 * charset is read as windows-1252 when that charset was UTF-8, with replacement characters
 * otherwise, and says so ({@code repaired}); so is valid UTF-8 declared as Latin-1.
 *
 * <p>Written here rather than taken from Rome's XmlReader or jsoup's DataUtil: both put the
 * document's declaration before the HTTP charset in some cases, fail on an unknown name instead of
 * passing over it, and neither falls back to windows-1252.
 */
public final class TextDecoding {
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
  private static final Pattern PROLOG_ENCODING =
      Pattern.compile("<\\?xml[^>]*?encoding\\s*=\\s*[\"']([A-Za-z0-9._:-]+)[\"']");
  private static final Pattern META_CHARSET =
      Pattern.compile("(?i)<meta[^>]+charset\\s*=\\s*[\"']?\\s*([A-Za-z0-9._:-]+)");
  private static final int DECLARATION_WINDOW = 1024;

  /** Where the declared charset of a document is written. */
  public enum Declaration {
    XML_PROLOG(PROLOG_ENCODING),
    HTML_META(META_CHARSET);

    private final Pattern pattern;

    Declaration(Pattern pattern) {
      this.pattern = pattern;
    }
  }

  /** The text, the charset it was read in, and whether bytes had to be read otherwise. */
  public record Decoded(String text, Charset charset, boolean repaired) {}

  private TextDecoding() {}

  public static Decoded decode(byte[] body, String contentType, Declaration declaration) {
    Charset bom = bomCharset(body);
    if (bom != null) {
      return strictOrRepaired(body, bomLength(body, bom), bom);
    }
    Charset unmarked = unmarkedWide(body);
    if (unmarked != null) return strictOrRepaired(body, 0, unmarked);
    Charset chosen = httpCharset(contentType).orElse(null);
    if (chosen == null) chosen = declared(body, declaration).orElse(null);
    if (WINDOWS_1252.equals(chosen)) {
      // Latin text is almost never valid UTF-8 once it has a byte past ASCII, while UTF-8 labelled
      // Latin-1 (a server's default, a copied prolog) is common: such bytes are read as UTF-8.
      String utf8 = strict(body, 0, StandardCharsets.UTF_8);
      if (utf8 != null && !isAscii(body)) return new Decoded(utf8, StandardCharsets.UTF_8, true);
    }
    if (chosen == null) {
      String utf8 = strict(body, 0, StandardCharsets.UTF_8);
      return utf8 != null
          ? new Decoded(utf8, StandardCharsets.UTF_8, false)
          : new Decoded(new String(body, WINDOWS_1252), WINDOWS_1252, false);
    }
    return strictOrRepaired(body, 0, chosen);
  }

  private static Decoded strictOrRepaired(byte[] body, int offset, Charset charset) {
    String text = strict(body, offset, charset);
    if (text != null) return new Decoded(text, charset, false);
    if (charset.equals(StandardCharsets.UTF_8)) {
      return new Decoded(
          new String(body, offset, body.length - offset, WINDOWS_1252), WINDOWS_1252, true);
    }
    return new Decoded(new String(body, offset, body.length - offset, charset), charset, true);
  }

  private static String strict(byte[] body, int offset, Charset charset) {
    try {
      CharBuffer chars =
          charset
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body, offset, body.length - offset));
      return chars.toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static boolean isAscii(byte[] body) {
    for (byte b : body) if (b < 0) return false;
    return true;
  }

  static Charset bomCharset(byte[] b) {
    if (starts(b, 0x00, 0x00, 0xFE, 0xFF)) return Charset.forName("UTF-32BE");
    if (starts(b, 0xFF, 0xFE, 0x00, 0x00)) return Charset.forName("UTF-32LE");
    if (starts(b, 0xEF, 0xBB, 0xBF)) return StandardCharsets.UTF_8;
    if (starts(b, 0xFE, 0xFF)) return StandardCharsets.UTF_16BE;
    if (starts(b, 0xFF, 0xFE)) return StandardCharsets.UTF_16LE;
    return null;
  }

  private static int bomLength(byte[] b, Charset charset) {
    String name = charset.name();
    if (name.startsWith("UTF-32")) return 4;
    return name.equals("UTF-8") ? 3 : 2;
  }

  /** UTF-16 without a mark, recognised by its first character ({@code <} with a zero byte). */
  private static Charset unmarkedWide(byte[] b) {
    if (starts(b, 0x3C, 0x00) && !starts(b, 0x3C, 0x00, 0x00, 0x00))
      return StandardCharsets.UTF_16LE;
    if (starts(b, 0x00, 0x3C) && !starts(b, 0x00, 0x00)) return StandardCharsets.UTF_16BE;
    return null;
  }

  private static boolean starts(byte[] b, int... prefix) {
    if (b.length < prefix.length) return false;
    for (int i = 0; i < prefix.length; i++) if ((b[i] & 0xFF) != prefix[i]) return false;
    return true;
  }

  private static Optional<Charset> httpCharset(String contentType) {
    if (contentType == null) return Optional.empty();
    MediaType type = MediaType.parse(contentType);
    if (type == null) return Optional.empty();
    String name = type.parameter("charset");
    return name == null ? Optional.empty() : asciiCompatible(name);
  }

  private static Optional<Charset> declared(byte[] body, Declaration declaration) {
    String head =
        new String(body, 0, Math.min(body.length, DECLARATION_WINDOW), StandardCharsets.ISO_8859_1);
    Matcher m = declaration.pattern.matcher(head);
    return m.find() ? asciiCompatible(m.group(1)) : Optional.empty();
  }

  /**
   * A charset by name, unless unknown or one that cannot have been read as ASCII: a declaration of
   * UTF-16 or UTF-32 read in ASCII bytes is wrong (the bytes would have had a mark or zeros).
   */
  private static Optional<Charset> asciiCompatible(String name) {
    try {
      Charset charset = Charset.forName(name.trim());
      String canonical = charset.name().toUpperCase(java.util.Locale.ROOT);
      if (canonical.startsWith("UTF-16") || canonical.startsWith("UTF-32")) return Optional.empty();
      // ISO-8859-1 declared is windows-1252 read (the HTML and feed-reader convention): C1 codes
      // in such documents are nearly always the Windows punctuation.
      if (charset.equals(StandardCharsets.ISO_8859_1) || charset.equals(StandardCharsets.US_ASCII))
        return Optional.of(WINDOWS_1252);
      return Optional.of(charset);
    } catch (IllegalArgumentException unknownOrUnsupported) {
      return Optional.empty();
    }
  }
}
