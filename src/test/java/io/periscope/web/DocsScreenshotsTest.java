package io.periscope.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The screenshots kept in docs/screenshots (written by the browser journeys) and the docs that show
 * them agree: every one a doc names exists, and every one kept is named by the README or a doc, so
 * that none is left behind when a journey stops taking it.
 */
public class DocsScreenshotsTest {
  private static final Path FOLDER = Path.of("docs/screenshots");
  private static final Pattern NAMED = Pattern.compile("screenshots/([\\w.-]+\\.png)");

  @Test
  public void everyScreenshotKeptIsShownAndEveryOneShownIsKept() throws IOException {
    Set<String> named = new TreeSet<>();
    List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
    try (Stream<Path> files = Files.list(Path.of("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
    }
    for (Path doc : docs) {
      Matcher m = NAMED.matcher(Files.readString(doc));
      while (m.find()) named.add(m.group(1));
    }
    Set<String> kept = new TreeSet<>();
    try (Stream<Path> files = Files.list(FOLDER)) {
      files.map(p -> p.getFileName().toString()).forEach(kept::add);
    }
    assertFalse("no screenshots under " + FOLDER.toAbsolutePath(), kept.isEmpty());
    Set<String> missing = new TreeSet<>(named);
    missing.removeAll(kept);
    assertEquals("named by a doc but not in " + FOLDER, Set.of(), missing);
    Set<String> unshown = new TreeSet<>(kept);
    unshown.removeAll(named);
    assertEquals("in " + FOLDER + " but named by no doc", Set.of(), unshown);
  }
}
