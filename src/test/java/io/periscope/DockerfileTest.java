package io.periscope;

import static io.periscope.testing.Dockerfile.all;
import static io.periscope.testing.Dockerfile.healthCheckCommand;
import static io.periscope.testing.Dockerfile.runtime;
import static io.periscope.testing.Dockerfile.stages;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.Dockerfile.Instruction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.Test;

/**
 * The Dockerfile, read as instructions (no Docker engine here to build it): the layers in the order
 * of how often they change, the OCI labels, and a health check that starts no JVM, whose command is
 * installed in the image and is run here against an answering, a failing and a silent server.
 */
public class DockerfileTest {
  private static int indexOf(List<Instruction> stage, String keyword, String containing) {
    for (int n = 0; n < stage.size(); n++) {
      Instruction i = stage.get(n);
      if (i.keyword().equals(keyword) && i.args().contains(containing)) return n;
    }
    throw new AssertionError("no " + keyword + " with " + containing);
  }

  @Test
  public void dependenciesAreALayerApartFromTheApplicationAndComeFirst() throws IOException {
    List<List<Instruction>> stages = stages();
    assertEquals("a build stage and the image", 2, stages.size());
    List<Instruction> build = stages.get(0);
    assertTrue(build.get(0).args().endsWith(" AS build"));
    assertTrue(
        "the dependencies are downloaded before the sources are copied",
        indexOf(build, "RUN", "dependency:go-offline") < indexOf(build, "COPY", "src src"));
    String packaging = build.get(indexOf(build, "RUN", "package")).args();
    assertTrue(packaging, packaging.contains("-Pimage"));
    assertTrue(packaging, packaging.contains("mv target/lib /image/lib"));

    List<Instruction> image = runtime();
    int lib = indexOf(image, "COPY", "/app/lib/");
    int app = indexOf(image, "COPY", "/app/periscope.jar");
    assertTrue("the dependencies' layer is below the application's", lib < app);
    assertTrue(image.get(lib).args().startsWith("--from=build /image/lib/"));
    assertTrue(image.get(app).args().startsWith("--from=build /image/periscope.jar"));
    assertTrue(all(image, "ENTRYPOINT").get(0).contains("-jar /app/periscope.jar"));

    // The application's manifest finds its dependencies where the image puts them: the image
    // profile's jar names lib/ beside it, and lib/ holds the runtime dependencies.
    String pom = Files.readString(Path.of("pom.xml"));
    String profile = pom.substring(pom.indexOf("<id>image</id>"));
    profile = profile.substring(0, profile.indexOf("</profile>"));
    assertTrue(profile.contains("<classpathPrefix>lib/</classpathPrefix>"));
    assertTrue(profile.contains("<addClasspath>true</addClasspath>"));
    assertTrue(profile.contains("<includeScope>runtime</includeScope>"));
    assertTrue(
        profile.contains("<outputDirectory>${project.build.directory}/lib</outputDirectory>"));
  }

  @Test
  public void theImageCarriesTheOciLabelsOfThisProject() throws IOException {
    Map<String, String> labels = new LinkedHashMap<>();
    Matcher pair = Pattern.compile("(\\S+)=\"([^\"]*)\"").matcher(all(runtime(), "LABEL").get(0));
    while (pair.find()) labels.put(pair.group(1), pair.group(2));
    for (String key : List.of("title", "description", "version", "revision", "created", "licenses"))
      assertTrue(key, labels.containsKey("org.opencontainers.image." + key));
    String pom = Files.readString(Path.of("pom.xml"));
    assertTrue(
        pom.contains(
            "<description>"
                + labels.get("org.opencontainers.image.description")
                + "</description>"));
    assertEquals("${VERSION}", labels.get("org.opencontainers.image.version"));
    assertEquals("${REVISION}", labels.get("org.opencontainers.image.revision"));
    String version = pom.substring(pom.indexOf("<version>") + 9, pom.indexOf("</version>"));
    assertTrue(all(runtime(), "ARG").contains("VERSION=" + version));
    assertEquals("Apache-2.0", labels.get("org.opencontainers.image.licenses"));
    assertTrue(Files.readString(Path.of("LICENSE")).contains("Apache License"));
  }

  /**
   * The check runs curl (installed in the image's own layer, whatever the base ships) through a
   * shell for $PORT; no JVM. Here it is run as written against real servers.
   */
  @Test
  public void theHealthCheckStartsNoJvmAndFailsUnlessHealthAnswers() throws Exception {
    List<String> command = healthCheckCommand();
    assertFalse(command.toString(), String.join(" ", command).contains("java"));
    assertEquals(List.of("sh", "-c"), command.subList(0, 2));
    String script = command.get(2);
    String program = script.split(" ")[0];
    assertEquals("curl", program);
    String install = all(runtime(), "RUN").get(0);
    assertTrue(
        install, install.matches(".*apt-get install -y --no-install-recommends [^&]*\\bcurl\\b.*"));
    assertTrue(script, script.contains("${PORT:-8080}/health"));
    assertTrue(all(runtime(), "EXPOSE").get(0).startsWith("8080 "));

    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setResponseCode(200).setBody("{\"status\":\"UP\"}"));
      server.enqueue(new MockResponse().setResponseCode(503));
      server.start();
      String port = String.valueOf(server.getPort());
      assertEquals("healthy", 0, run(command, port));
      assertEquals("/health", server.takeRequest().getPath());
      assertNotEquals("answering 503", 0, run(command, port));
      server.shutdown();
      assertNotEquals("not listening", 0, run(command, port));
    }
  }

  private static int run(List<String> command, String port) throws Exception {
    ProcessBuilder check = new ProcessBuilder(command).redirectErrorStream(true);
    check.environment().put("PORT", port);
    Process p = check.start();
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }
}
