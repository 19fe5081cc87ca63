package io.periscope.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version the jar was built as (its manifest), and the Java it runs on. */
final class Version implements IVersionProvider {
  /** The built version, or {@code development} when the classes do not come from the jar. */
  static String of() {
    String built = Version.class.getPackage().getImplementationVersion();
    return built == null ? "development" : built;
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "periscope " + of(),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
