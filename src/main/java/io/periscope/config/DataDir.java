package io.periscope.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The data directory ({@code DATA_DIR}) holds the embedded journal, the generated secrets and the
 * locks, so only the service's own user may read it: the folder is 0700 and its files 0600. The
 * embedded database's server, which lets the command line read the journal while the service holds
 * it, listens on loopback only.
 */
public final class DataDir {
  private static final Set<PosixFilePermission> FOLDER =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private DataDir() {}

  /**
   * H2 reads this once, when its first class loads: called before anything touches the journal.
   * AUTO_SERVER would otherwise listen on every interface, with the journal behind it.
   */
  public static void bindEmbeddedDatabaseToLoopback() {
    if (System.getProperty("h2.bindAddress") == null)
      System.setProperty("h2.bindAddress", "127.0.0.1");
  }

  /** Creates the folder (0700) when it is missing. */
  public static void create(Path dataDir) throws IOException {
    if (Files.isDirectory(dataDir)) return;
    Files.createDirectories(dataDir);
    restrict(dataDir);
  }

  /**
   * The folder 0700 and every file in it 0600, whoever created them (H2 and the lock take the
   * process's umask). Nothing on a file system without POSIX permissions.
   */
  public static void restrict(Path dataDir) throws IOException {
    if (!Files.getFileStore(dataDir).supportsFileAttributeView("posix")) return;
    Files.setPosixFilePermissions(dataDir, FOLDER);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dataDir, Files::isRegularFile)) {
      for (Path file : files) Files.setPosixFilePermissions(file, FILE);
    }
  }

  /**
   * The secret kept in {@code dataDir/name}: generated on first use (48 random bytes, base64url),
   * written 0600 before it has content, and never replaced, so every later start reads the same.
   */
  public static String secret(Path dataDir, String name) throws IOException {
    Path file = dataDir.resolve(name);
    if (Files.exists(file)) return Files.readString(file, StandardCharsets.UTF_8).trim();
    byte[] bytes = new byte[48];
    new SecureRandom().nextBytes(bytes);
    String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    create(dataDir);
    Path tmp = Files.createTempFile(dataDir, name, ".tmp"); // 0600 where permissions exist
    Files.writeString(tmp, secret, StandardCharsets.UTF_8);
    try {
      Files.move(tmp, file); // fails rather than replace a secret another process just wrote
    } catch (IOException raced) {
      Files.deleteIfExists(tmp);
    }
    return Files.readString(file, StandardCharsets.UTF_8).trim();
  }
}
