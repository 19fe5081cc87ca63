package io.periscope.web;

import io.periscope.crypto.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The web client's files, read once from the jar: the ES modules of {@code src/main/web} (copied
 * under {@code web/} by Maven) and Preact from its WebJar. They are served under {@code
 * /assets/<hash>/}, the hash being over every file, so a new build is a new path and a browser may
 * keep any asset forever. {@code index.html} names that path and is never cached.
 */
public final class WebAssets {
  static final String ROOT = "web";
  static final String INDEX = "index.html";
  static final String SERVICE_WORKER = "service-worker.js";
  private static final String PREACT = "META-INF/resources/webjars/preact/";

  /** The hash's placeholder in index.html. */
  private static final String ASSETS_PLACEHOLDER = "/assets/HASH/";

  private final Map<String, byte[]> files;
  private final String hash;
  private final byte[] index;
  private final String importMapHash;

  private WebAssets(Map<String, byte[]> files) {
    this.files = files;
    MessageDigest digest = Sha256.digest();
    files.forEach(
        (name, bytes) -> {
          digest.update(name.getBytes(StandardCharsets.UTF_8));
          digest.update(bytes);
        });
    this.hash = HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    String page =
        new String(file(INDEX).orElseThrow(), StandardCharsets.UTF_8)
            .replace(ASSETS_PLACEHOLDER, assetsPath());
    this.index = page.getBytes(StandardCharsets.UTF_8);
    this.importMapHash = importMapHash(page);
  }

  /** The client of this jar; a jar without it does not start. */
  public static WebAssets load() {
    Map<String, byte[]> files = new TreeMap<>();
    readTree(ROOT, files);
    String preact = PREACT + preactVersion() + "/";
    files.put("vendor/preact.js", resource(preact + "dist/preact.module.js"));
    files.put("vendor/hooks.js", resource(preact + "hooks/dist/hooks.module.js"));
    if (!files.containsKey(INDEX)) throw new IllegalStateException("the web client is missing");
    return new WebAssets(Map.copyOf(files));
  }

  /** Where every asset of this build is served, ending in '/'. */
  public String assetsPath() {
    return "/assets/" + hash + "/";
  }

  public String hash() {
    return hash;
  }

  public byte[] index() {
    return index.clone();
  }

  public Optional<byte[]> file(String name) {
    return Optional.ofNullable(files.get(name));
  }

  /**
   * The Content-Security-Policy of the client: scripts only from the service, the one inline script
   * being the import map (allowed by its hash), requests only to the service.
   */
  public String contentSecurityPolicy() {
    return "default-src 'none'; script-src 'self' 'sha256-"
        + importMapHash
        + "'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self';"
        + " manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
  }

  /** The CSP source hash of the page's import map, the text between its tags. */
  static String importMapHash(String page) {
    String open = "<script type=\"importmap\">";
    int start = page.indexOf(open);
    int end = page.indexOf("</script>", start);
    if (start < 0 || end < 0) throw new IllegalStateException("index.html has no import map");
    byte[] text = page.substring(start + open.length(), end).getBytes(StandardCharsets.UTF_8);
    return Base64.getEncoder().encodeToString(Sha256.of(text));
  }

  private static String preactVersion() {
    Properties properties = new Properties();
    try (InputStream in =
        stream("META-INF/maven/org.webjars.npm/preact/pom.properties").orElseThrow()) {
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version");
  }

  /**
   * Every file under the class path folder {@code root}, in the jar or in target/classes: a class
   * path cannot be listed, so the folder is walked as a file system.
   */
  private static void readTree(String root, Map<String, byte[]> into) {
    URL url = WebAssets.class.getClassLoader().getResource(root + "/" + INDEX);
    if (url == null) throw new IllegalStateException("the web client is missing from the jar");
    try {
      URI uri = url.toURI();
      if (uri.getScheme().equals("jar")) {
        try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
          walk(jar.getPath("/" + root), into);
        } catch (FileSystemAlreadyExistsException opened) {
          walk(FileSystems.getFileSystem(uri).getPath("/" + root), into);
        }
      } else {
        walk(Path.of(uri).getParent(), into);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void walk(Path folder, Map<String, byte[]> into) throws IOException {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path p : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
        into.put(folder.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
      }
    }
  }

  private static byte[] resource(String name) {
    try (InputStream in = stream(name).orElseThrow(() -> new IllegalStateException(name))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<InputStream> stream(String name) {
    return Optional.ofNullable(WebAssets.class.getClassLoader().getResourceAsStream(name));
  }
}
