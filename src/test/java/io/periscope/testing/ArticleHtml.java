package io.periscope.testing;

import java.util.List;
import java.util.Random;

/**
 * HTML as feeds carry it in {@code content:encoded} or Atom content, made up from a seed: a whole
 * article (headings, paragraphs with links and emphasis, entities with and without their semicolon,
 * lists, quotes, code, figures, comments, an embed's script), or a soup of fragments that stress a
 * parser (unclosed and misnested tags, tables with stray text, raw-text elements, foreign content,
 * a {@code <} in attributes and scripts, no-break and zero-width spaces); or a whole news page
 * around an article (head with styles and scripts, header, navigation, asides, a comment thread,
 * footer, tracking scripts, HTML comments).
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

  /**
   * A news page of about {@code chars} characters: the chrome and scripts take about a third, the
   * article (or {@code <main>}, or a bare {@code <div>}, as the seed picks) a third, the comment
   * thread and asides the rest.
   */
  public static String page(Random random, int chars) {
    StringBuilder html = new StringBuilder(chars + 2_000);
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(words(random, 6))
        .append("</title>\n<meta name=\"viewport\" content=\"width=device-width\">")
        .append("<link rel=\"stylesheet\" href=\"/s.css\">\n<style>");
    while (html.length() < chars / 8)
      html.append(".c").append(html.length()).append(" { margin: 0 1px; color: #333 }\n");
    html.append("</style>\n<script>window.dataLayer = [];");
    while (html.length() < chars / 6)
      html.append("if (a < b && c) { track('").append(words(random, 2)).append("'); }\n");
    html.append("</script></head>\n<body class=\"news\"><header><a href=\"/\">Daily</a>")
        .append("<nav><ul>");
    for (int i = 0; i < 30; i++)
      html.append("<li><a href=\"/s/").append(i).append("\">").append(words(random, 2));
    html.append("</ul></nav><form action=\"/search\"><input name=q>Search</form></header>\n");
    html.append("<!-- content -->\n<div id=\"page\">");
    String container = List.of("article", "main", "div").get(random.nextInt(3));
    html.append('<').append(container).append(" class=\"story\"><h1>").append(words(random, 8));
    html.append("</h1>\n").append(article(random, chars / 3));
    html.append("<svg viewBox=\"0 0 10 10\"><text>share</text></svg>");
    html.append("</").append(container).append(">\n<aside><h3>Related</h3><ul>");
    for (int i = 0; i < 10; i++) html.append("<li><a href=\"/r\">").append(words(random, 6));
    html.append("</ul></aside>\n<section id=\"comments\">");
    int end = chars * 9 / 10;
    for (int i = 0; html.length() < end; i++) {
      html.append("<div class=\"comment\" id=\"c").append(i).append("\"><span>");
      html.append(words(random, 2)).append("</span><p>").append(words(random, 25));
      html.append("</p><template><b>reply</b></template></div>\n");
    }
    html.append("</section></div>\n<footer><p>&copy; Daily ").append(words(random, 10));
    html.append("</p></footer><noscript><img src=\"/px\"></noscript>\n");
    while (html.length() < chars)
      html.append("<script>(function(){ var x = '").append(words(random, 8)).append("'; })();");
    return html.append("</script></body></html>\n").toString();
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
