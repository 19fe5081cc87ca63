package io.periscope.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Test;

public class SecretFilesTest {
  private Path secret(String contents) throws Exception {
    Path file = Files.createTempFile("periscope-secret", "");
    Files.writeString(file, contents);
    return file;
  }

  @Test
  public void aVariableGivenAsAFileIsReadWithoutItsTrailingLineBreak() throws Exception {
    Map<String, String> env =
        SecretFiles.read(
            Map.of(
                "AUTH_JWT_SECRET_FILE",
                secret("a-secret-of-at-least-32-bytes-long\n").toString(),
                "PORT",
                "8080"));
    assertEquals("a-secret-of-at-least-32-bytes-long", env.get("AUTH_JWT_SECRET"));
    assertEquals("8080", env.get("PORT"));
  }

  @Test
  public void theConfigurationTakesTheFilesValue() throws Exception {
    Map<String, String> env =
        SecretFiles.read(
            Map.of(
                "AUTH_JWT_SECRET_FILE", secret("from-a-file-secret-of-32-bytes-x\r\n").toString(),
                "DATA_DIR", Files.createTempDirectory("periscope-secrets").toString()));
    Settings settings = Settings.from(Profiles.load("embedded", Profiles.environment(env)));
    assertEquals("from-a-file-secret-of-32-bytes-x", settings.jwtSecret());
  }

  @Test
  public void bothTheVariableAndItsFileIsAnError() throws Exception {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SecretFiles.read(
                    Map.of("SMTP_PASSWORD", "x", "SMTP_PASSWORD_FILE", secret("y").toString())));
    assertEquals("set SMTP_PASSWORD or SMTP_PASSWORD_FILE, not both", e.getMessage());
  }

  @Test
  public void anUnreadableFileNamesThePathNotAValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SecretFiles.read(Map.of("SMTP_PASSWORD_FILE", "/nonexistent/secret")));
    assertTrue(e.getMessage(), e.getMessage().startsWith("SMTP_PASSWORD_FILE: cannot read"));
  }

  @Test
  public void aBadLogFormatStopsTheStart() throws Exception {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Settings.from(
                    Profiles.load(
                        "embedded",
                        com.typesafe.config.ConfigFactory.parseMap(
                            Map.of("periscope.log-format", "xml")))));
    assertEquals("LOG_FORMAT must be plain or json", e.getMessage());
  }
}
