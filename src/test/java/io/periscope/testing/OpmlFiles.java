package io.periscope.testing;

import java.io.InputStream;

/**
 * The OPML files made for the tests (src/test/resources/io/periscope/source/opml), hostile ones
 * among them.
 */
public final class OpmlFiles {
  private OpmlFiles() {}

  /** The bytes of the made file {@code name}. */
  public static byte[] file(String name) throws Exception {
    try (InputStream in =
        OpmlFiles.class.getResourceAsStream("/io/periscope/source/opml/" + name)) {
      if (in == null) throw new AssertionError("no made OPML file " + name);
      return in.readAllBytes();
    }
  }
}
