package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * No file of src/main/java grows past what a newcomer reads in one sitting: a file that does is
 * carrying two concepts, and docs/architecture.md says how the big ones were cut along their seams.
 */
public class FileSizeTest {
  static final int MAX_LINES = 700;

  @Test
  public void everyMainFileIsUnderTheLimit() throws IOException {
    List<String> tooLong;
    long files;
    try (Stream<Path> all = Files.walk(Path.of("src/main/java"))) {
      List<Path> sources = all.filter(p -> p.toString().endsWith(".java")).sorted().toList();
      files = sources.size();
      tooLong =
          sources.stream()
              .filter(p -> lines(p) >= MAX_LINES)
              .map(p -> p + " (" + lines(p) + " lines)")
              .toList();
    }
    assertTrue("the sources were found", files > 100);
    assertEquals("main files of " + MAX_LINES + " lines or more", List.of(), tooLong);
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new IllegalStateException(file.toString(), e);
    }
  }
}
