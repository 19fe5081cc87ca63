package io.periscope.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The web client's modules as written (there is no build step): a page imports {@code lib/} and
 * never another page, every relative import names what its module exports, and the layout a reader
 * relies on holds: two-space indentation, no tabs or trailing spaces, and lines of code at most
 * {@value #WIDTH} characters, not counting the text inside quotes, so that a sentence shown to a
 * person stays on one line and can be found with grep. The prettier command of docs/development.md
 * (the settings in .prettierrc.json) formats a file so.
 */
public class WebClientSourcesTest {
  private static final Path ROOT = Path.of("src/main/web");
  private static final int WIDTH = 120;

  private static final Pattern IMPORT =
      Pattern.compile("^import \\{([^}]*)\\} from '(\\.[^']*)';", Pattern.MULTILINE);
  private static final Pattern ANY_RELATIVE_IMPORT =
      Pattern.compile("^import .* from '(\\.[^']*)';", Pattern.MULTILINE);
  private static final Pattern EXPORT =
      Pattern.compile(
          "^export (?:async )?(?:function\\*? ?|const |let |class )(\\w+)", Pattern.MULTILINE);

  /** String and template literals, whose text does not count towards a line's width. */
  private static final Pattern LITERAL =
      Pattern.compile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"|`(?:[^`\\\\]|\\\\.)*`");

  @Test
  public void pagesImportLibAndNeverAnotherPage() throws IOException {
    List<String> wrong = new ArrayList<>();
    for (Path file : modules()) {
      String from = name(file);
      if (from.equals("app.js")) continue; // the routes: the one module that imports pages
      Matcher m = ANY_RELATIVE_IMPORT.matcher(Files.readString(file));
      while (m.find()) {
        String to = name(file.getParent().resolve(m.group(1)).normalize());
        if (to.startsWith("pages/")) wrong.add(from + " imports " + to);
      }
    }
    assertEquals("what two pages share belongs in lib/", List.of(), wrong);
  }

  @Test
  public void everyRelativeImportNamesWhatItsModuleExports() throws IOException {
    Map<String, Set<String>> exports = new TreeMap<>();
    for (Path file : modules()) {
      Set<String> names = new TreeSet<>();
      Matcher m = EXPORT.matcher(Files.readString(file));
      while (m.find()) names.add(m.group(1));
      exports.put(name(file), names);
    }
    List<String> wrong = new ArrayList<>();
    for (Path file : modules()) {
      Matcher m = IMPORT.matcher(Files.readString(file));
      while (m.find()) {
        String module = name(file.getParent().resolve(m.group(2)).normalize());
        Set<String> exported = exports.get(module);
        if (exported == null) {
          wrong.add(name(file) + " imports " + module + ", which does not exist");
          continue;
        }
        for (String imported : m.group(1).split(",")) {
          String exportName = imported.strip().split("\\s+as\\s+")[0];
          if (!exportName.isEmpty() && !exported.contains(exportName))
            wrong.add(name(file) + " imports " + exportName + ", which " + module + " lacks");
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  public void linesAreIndentedByTwoAndOfReadableWidth() throws IOException {
    List<String> wrong = new ArrayList<>();
    for (Path file : modules()) {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String at = name(file) + ":" + (i + 1) + ": ";
        if (line.contains("\t")) wrong.add(at + "a tab");
        if (!line.isEmpty() && line.strip().length() < line.length() && line.endsWith(" "))
          wrong.add(at + "trailing spaces");
        int indent = line.length() - line.stripLeading().length();
        boolean commentStar = line.stripLeading().startsWith("*");
        if (indent % 2 != (commentStar ? 1 : 0) && !line.isBlank())
          wrong.add(at + "indented by " + indent);
        int width = LITERAL.matcher(line).replaceAll("''").length();
        if (width > WIDTH) wrong.add(at + width + " characters of code");
      }
    }
    assertFalse("no modules found under " + ROOT.toAbsolutePath(), modules().isEmpty());
    assertEquals(List.of(), wrong);
  }

  private static List<Path> modules() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(p -> p.toString().endsWith(".js")).sorted().toList();
    }
  }

  private static String name(Path file) {
    return ROOT.relativize(file).toString().replace('\\', '/');
  }
}
