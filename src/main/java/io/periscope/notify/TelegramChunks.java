package io.periscope.notify;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Splits Telegram HTML into messages of at most {@link #LIMIT} characters: between lines where it
 * can, and otherwise inside a line at a space, never inside a tag or an entity; tags open at a cut
 * are closed at the end of one message and opened again at the start of the next, so each message
 * parses on its own.
 */
final class TelegramChunks {
  /** Telegram's sendMessage limit. Counting UTF-16 units of the HTML over-counts, so it is safe. */
  static final int LIMIT = 4096;

  private TelegramChunks() {}

  static List<String> split(String html, int limit) {
    List<String> chunks = new ArrayList<>();
    StringBuilder chunk = null;
    for (String line : html.split("\n", -1)) {
      List<String> pieces = line.length() <= limit ? List.of(line) : splitLine(line, limit);
      for (String piece : pieces) {
        if (chunk != null && chunk.length() + 1 + piece.length() <= limit) {
          chunk.append('\n').append(piece);
        } else {
          if (chunk != null) chunks.add(chunk.toString());
          chunk = new StringBuilder(piece);
        }
      }
    }
    if (chunk != null) chunks.add(chunk.toString());
    // Telegram refuses an empty message.
    chunks.removeIf(String::isBlank);
    return chunks;
  }

  /** One over-long line cut into pieces that each fit, with their tags balanced. */
  private static List<String> splitLine(String line, int limit) {
    List<String> tokens = tokens(line);
    List<String> pieces = new ArrayList<>();
    Deque<String> open = new ArrayDeque<>(); // opening tags in effect, innermost first
    int start = 0;
    while (start < tokens.size()) {
      String reopen = String.join("", reversed(open));
      Deque<String> stack = new ArrayDeque<>(open);
      int length = reopen.length();
      int end = start;
      int spaceEnd = -1;
      Deque<String> spaceStack = null;
      Deque<String> endStack = new ArrayDeque<>(stack);
      for (int i = start; i < tokens.size(); i++) {
        String token = tokens.get(i);
        applyTag(stack, token);
        length += token.length();
        if (length + closing(stack).length() > limit && i > start) break;
        end = i + 1;
        endStack = new ArrayDeque<>(stack);
        if (token.equals(" ")) {
          spaceEnd = end;
          spaceStack = endStack;
        }
      }
      if (end < tokens.size() && spaceEnd > start) {
        end = spaceEnd;
        endStack = spaceStack;
      }
      pieces.add(reopen + String.join("", tokens.subList(start, end)) + closing(endStack));
      open = endStack;
      start = end;
    }
    return pieces;
  }

  /** Tags and entities are single tokens; everything else is one code point per token. */
  private static List<String> tokens(String line) {
    List<String> tokens = new ArrayList<>();
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      int end = -1;
      if (c == '<') {
        int close = line.indexOf('>', i);
        end = close < 0 ? -1 : close + 1;
      } else if (c == '&') {
        int semi = line.indexOf(';', i);
        end = semi < 0 || semi - i > 10 ? -1 : semi + 1;
      }
      if (end < 0) end = i + Character.charCount(line.codePointAt(i));
      tokens.add(line.substring(i, end));
      i = end;
    }
    return tokens;
  }

  private static void applyTag(Deque<String> stack, String token) {
    if (!token.startsWith("<") || token.length() < 3) return;
    if (token.startsWith("</")) {
      stack.pollFirst();
    } else if (!token.endsWith("/>")) {
      stack.push(token);
    }
  }

  private static String closing(Deque<String> stack) {
    StringBuilder out = new StringBuilder();
    for (String tag : stack) out.append("</").append(tagName(tag)).append('>');
    return out.toString();
  }

  private static String tagName(String openingTag) {
    int end = 1;
    while (end < openingTag.length() && Character.isLetterOrDigit(openingTag.charAt(end))) end++;
    return openingTag.substring(1, end);
  }

  private static List<String> reversed(Deque<String> stack) {
    List<String> outermostFirst = new ArrayList<>(stack);
    java.util.Collections.reverse(outermostFirst);
    return outermostFirst;
  }
}
