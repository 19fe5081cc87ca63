package io.periscope.cli;

/**
 * A CSV cell (RFC 4180) of text from feeds, models or users. Hand-written: quoting is four rules,
 * fewer lines than wiring a CSV library for one output.
 */
final class CsvCell {
  private CsvCell() {}

  /**
   * The cell: empty for null; quoted, quotes doubled, when it holds a comma, quote or line break;
   * prefixed with {@code '} when it starts like a formula ({@code = + - @}, a tab or a carriage
   * return), so that a spreadsheet opening the export shows it as text and never evaluates it.
   */
  static String of(String text) {
    if (text == null) return "";
    String cell = text;
    if (!cell.isEmpty() && "=+-@\t\r".indexOf(cell.charAt(0)) >= 0) cell = "'" + cell;
    if (cell.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r'))
      return "\"" + cell.replace("\"", "\"\"") + "\"";
    return cell;
  }
}
