package io.periscope.runtime;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import io.periscope.testing.RemoteTlsFiles;
import io.periscope.testing.TestJournals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import okhttp3.tls.HeldCertificate;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * What {@code serve} checks of REMOTE_TLS_DIR before it starts a node: files the engine provider
 * can use, a certificate valid now and issued by ca.crt. Each refusal is one line naming the
 * setting and the folder, never the key.
 */
public class RemoteTlsTest {
  private static final HeldCertificate CA = RemoteTlsFiles.authority("periscope-test-ca");

  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private static Config withTls(Path dir) {
    return TestJournals.h2(Map.of("REMOTE_TLS", "true", "REMOTE_TLS_DIR", dir.toString()));
  }

  private Path files(HeldCertificate node, HeldCertificate trusted) throws Exception {
    return RemoteTlsFiles.write(folder.newFolder().toPath(), node, trusted);
  }

  private static String refusal(Path dir) {
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> RemoteTls.check(withTls(dir)));
    assertTrue(
        refused.getMessage(), refused.getMessage().startsWith("REMOTE_TLS_DIR (" + dir + "): "));
    assertTrue(refused.getMessage(), !refused.getMessage().contains("PRIVATE KEY"));
    return refused.getMessage();
  }

  @Test
  public void plainTcpIsTheDefaultAndReadsNoFiles() {
    Config config = TestJournals.h2(Map.of("REMOTE_TLS_DIR", "/nonexistent"));
    assertEquals("tcp", config.getString("pekko.remote.artery.transport"));
    RemoteTls.check(config);
  }

  @Test
  public void aCertificateOfTheCaWithItsRsaKeyIsUsed() throws Exception {
    Config config = withTls(files(RemoteTlsFiles.node(CA), CA));
    assertEquals("tls-tcp", config.getString("pekko.remote.artery.transport"));
    RemoteTls.check(config);
  }

  @Test
  public void missingFilesStopTheStart() throws Exception {
    Path empty = folder.newFolder().toPath();
    assertTrue(refusal(empty), refusal(empty).contains("no file " + empty));
    Path noKey = files(RemoteTlsFiles.node(CA), CA);
    Files.delete(noKey.resolve("tls.key"));
    assertTrue(refusal(noKey), refusal(noKey).endsWith("no file " + noKey.resolve("tls.key")));
  }

  @Test
  public void aKeyTheProviderCannotReadStopsTheStart() throws Exception {
    HeldCertificate ecdsa =
        new HeldCertificate.Builder()
            .commonName(RemoteTlsFiles.NODE_NAME)
            .signedBy(CA)
            .ecdsa256()
            .build();
    refusal(files(ecdsa, CA));
  }

  @Test
  public void aCertificateAnotherCaIssuedStopsTheStart() throws Exception {
    HeldCertificate otherCa = RemoteTlsFiles.authority("another-ca");
    String refused = refusal(files(RemoteTlsFiles.node(otherCa), CA));
    assertTrue(
        refused,
        refused.endsWith("ca.crt did not issue tls.crt: its peers would refuse this node"));
  }

  @Test
  public void anExpiredCertificateStopsTheStart() throws Exception {
    long now = System.currentTimeMillis();
    HeldCertificate expired =
        new HeldCertificate.Builder()
            .commonName(RemoteTlsFiles.NODE_NAME)
            .signedBy(CA)
            .rsa2048()
            .validityInterval(
                now - Duration.ofDays(60).toMillis(), now - Duration.ofDays(30).toMillis())
            .build();
    String refused = refusal(files(expired, CA));
    assertTrue(refused, refused.contains("tls.crt is valid only from"));
  }
}
