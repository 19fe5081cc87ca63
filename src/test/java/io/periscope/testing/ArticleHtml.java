package io.periscope.testing;

import java.util.List;
import java.util.Random;

/**
 * HTML as feeds carry it in {@code content:encoded} or Atom content, made up from a seed: a whole
 * article (headings, paragraphs with links and emphasis, entities with and without their semicolon,
 * lists, quotes, code, figures, comments, an embed's script), or a soup of fragments that stress a
 * parser (unclosed and misnested tags, tables with stray text, raw-text elements, foreign content,
 * a {@code <} in attributes and scripts, no-break and zero-width spaces).
 */
public final class ArticleHtml {
  private static final List<String> WORDS =
      List.of(
          "the",
          "feed",
          "reader",
          "parses",
          "articles",
          "quickly",
          "über",
          "naïve",
          "日本語",
          "😀",
          "release",
          "notes",
          "version",
          "2.0",
          "fixes",
          "memory",
          "a",
          "of",
          "and",
          "to");

  private static final List<String> ENTITIES =
      List.of("&amp;", "&nbsp;", "&#8217;", "&mdash;", "&eacute;", "&copy", "&lt;", "&#x1F600;");

  private static final List<String> SOUP =
      List.of(
          "<p>",
          "</p>",
          "<b>",
          "</b>",
          "<i>",
          "</i>",
          "<div>",
          "</div>",
          "<br>",
          "<br/>",
          "<table>",
          "</table>",
          "<tr>",
          "<td>",
          "</td>",
          "<th>",
          "<caption>",
          "<title>",
          "</title>",
          "<textarea>",
          "</textarea>",
          "<script>",
          "</script>",
          "<style>",
          "</style>",
          "<!--",
          "-->",
          "<![CDATA[",
          "]]>",
          "<svg>",
          "</svg>",
          "<math>",
          "<template>",
          "</template>",
          "<frameset>",
          "<select>",
          "<option>",
          "<plaintext>",
          "<pre>\n",
          "<li>",
          "<ul>",
          "<h1>",
          "<a href=\"x<y\" title='a&amp;b'>",
          "</a>",
          "<img alt=\"<p>\">",
          "<",
          "&",
          "&amp",
          "&#",
          "&#38",
          "&#x26;",
          "&notit;",
          "\u00a0",
          "\u200b",
          "\u00ad",
          " ",
          "\n",
          "\t",
          "\u0001",
          "\r\n",
          ">",
          "\"",
          "<noscript>",
          "<xmp>",
          "<iframe>",
          "<body>",
          "<html>");

  private ArticleHtml() {}

  /** An article of about {@code chars} characters of HTML. */
  public static String article(Random random, int chars) {
    StringBuilder html = new StringBuilder(chars + 1_000);
    int block = 0;
    while (html.length() < chars) {
      switch (block++ % 9) {
        case 0 ->
            html.append("<h2 id=\"s")
                .append(block)
                .append("\">")
                .append(words(random, 5))
                .append("</h2>\n");
        case 1, 4, 7 -> paragraph(random, html);
        case 2 ->
            html.append("<ul>\n  <li>")
                .append(words(random, 8))
                .append("</li>\n  <li>")
                .append(words(random, 8))
                .append("</li>\n</ul>\n");
        case 3 ->
            html.append("<figure><img src=\"https://cdn.example/i/")
                .append(block)
                .append(".jpg\" alt=\"")
                .append(words(random, 4))
                .append("\" width=\"800\" height=\"600\"><figcaption>")
                .append(words(random, 6))
                .append("</figcaption></figure>\n");
        case 5 ->
            html.append("<blockquote><p>").append(words(random, 20)).append("</p></blockquote>\n");
        case 6 ->
            html.append(
                "<pre><code>for (int i = 0; i &lt; n; i++) {\n  sum += i;\n}</code></pre>\n");
        default ->
            html.append("<!-- ad slot -->\n<script async src=\"https://embed.example/w.js\">")
                .append("if (a < b && c) { load(); }</script>\n");
      }
    }
    return html.toString();
  }

  /** About {@code chars} characters of fragments and words in any order. */
  public static String soup(Random random, int chars) {
    StringBuilder html = new StringBuilder(chars + 100);
    while (html.length() < chars) {
      if (random.nextInt(3) == 0) html.append(SOUP.get(random.nextInt(SOUP.size())));
      else html.append(words(random, 1 + random.nextInt(6)));
    }
    return html.toString();
  }

  private static void paragraph(Random random, StringBuilder html) {
    html.append("<p>").append(words(random, 12));
    html.append(" <a href=\"https://news.example/a?x=1&amp;y=2\" title=\"more &amp; more\">")
        .append(words(random, 3))
        .append("</a> ");
    html.append("<em>").append(words(random, 4)).append("</em>");
    html.append(ENTITIES.get(random.nextInt(ENTITIES.size())));
    html.append(" <strong>").append(words(random, 6)).append("</strong> ");
    html.append(words(random, 20)).append(".</p>\n");
  }

  private static String words(Random random, int n) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) text.append(' ');
      text.append(WORDS.get(random.nextInt(WORDS.size())));
    }
    return text.toString();
  }
}
