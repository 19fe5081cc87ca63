package io.periscope.source;

import java.io.Reader;
import java.io.StringReader;
import java.util.Iterator;
import java.util.function.Predicate;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.jsoup.parser.StreamParser;

/**
 * A jsoup parse (HTML or XML) that stops building once it holds {@code maxElements} elements or
 * nests {@link #MAX_DEPTH} deep: what was built up to there is the document. jsoup keeps going
 * where a strict parser stops (unclosed elements, undeclared prefixes, stray {@code &}), never
 * reads a DTD or fetches anything, and expands no entity a document declares, which is what both
 * feeds and pages need; the budget is what it lacks for hostile input.
 *
 * @param document what was parsed
 * @param cut whether the budget (or what the caller was waiting for) stopped the parse before the
 *     end of the text
 * @param repairs how many places jsoup had to repair an XML document (up to {@link
 *     #MAX_TRACKED_ERRORS}); zero for HTML, where repairs are the rule and nothing reads their
 *     count, and where tracking them (a message formatted for each) was a fifth of a news page's
 *     parse
 */
public record BudgetedParse(Document document, boolean cut, int repairs) {
  /** Deeper nesting is flattened by jsoup (no stack overflow in later tree walks either). */
  public static final int MAX_DEPTH = 256;

  static final int MAX_TRACKED_ERRORS = 1_000;

  public static BudgetedParse html(String text, String baseUri, int maxElements) {
    return htmlUntil(text, baseUri, maxElements, element -> false);
  }

  /**
   * {@link #html}, stopped too once {@code done} holds of an element as it closes (then {@code cut}
   * is true): elements close in the order the parser is done with them, and what it is done with,
   * those elements' content, later HTML does not change (but for a {@code <frameset>}, which takes
   * the place of the whole body).
   */
  public static BudgetedParse htmlUntil(
      String text, String baseUri, int maxElements, Predicate<Element> done) {
    return parse(Parser.htmlParser(), new StringReader(text), baseUri, maxElements, done);
  }

  public static BudgetedParse xml(String text, String baseUri, int maxElements) {
    return parse(
        Parser.xmlParser().setTrackErrors(MAX_TRACKED_ERRORS),
        new StringReader(text),
        baseUri,
        maxElements,
        element -> false);
  }

  private static BudgetedParse parse(
      Parser parser, Reader text, String baseUri, int maxElements, Predicate<Element> done) {
    parser.setMaxDepth(MAX_DEPTH);
    try (StreamParser stream = new StreamParser(parser).parse(text, baseUri)) {
      int elements = 0;
      boolean cut = false;
      // Elements arrive as they close; the document keeps them, so counting is all there is to do.
      for (Iterator<Element> it = stream.iterator(); it.hasNext(); ) {
        if (++elements > maxElements || done.test(it.next())) {
          cut = true;
          stream.stop();
          break;
        }
      }
      return new BudgetedParse(stream.document(), cut, parser.getErrors().size());
    }
  }
}
