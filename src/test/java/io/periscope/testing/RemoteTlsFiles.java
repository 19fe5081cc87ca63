package io.periscope.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import okhttp3.tls.HeldCertificate;

/**
 * Certificates for remoting over TLS, written as REMOTE_TLS_DIR holds them (cert-manager's names):
 * a CA of a test's own, node certificates it issues, each written with the CA a node trusts.
 */
public final class RemoteTlsFiles {
  /** The subject name every node's certificate carries: peers must share one. */
  public static final String NODE_NAME = "periscope-node";

  private RemoteTlsFiles() {}

  /** A root CA, RSA as Pekko's engine provider needs. */
  public static HeldCertificate authority(String name) {
    return new HeldCertificate.Builder().certificateAuthority(0).commonName(name).rsa2048().build();
  }

  /** A node certificate that {@code issuer} signs, RSA, named {@link #NODE_NAME}. */
  public static HeldCertificate node(HeldCertificate issuer) {
    return new HeldCertificate.Builder().commonName(NODE_NAME).signedBy(issuer).rsa2048().build();
  }

  /**
   * {@code dir} with tls.crt and tls.key (PKCS#8) of {@code node} and ca.crt, the CA the node
   * trusts.
   */
  public static Path write(Path dir, HeldCertificate node, HeldCertificate trusted)
      throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("tls.crt"), node.certificatePem(), StandardCharsets.US_ASCII);
    Files.writeString(dir.resolve("tls.key"), node.privateKeyPkcs8Pem(), StandardCharsets.US_ASCII);
    Files.writeString(dir.resolve("ca.crt"), trusted.certificatePem(), StandardCharsets.US_ASCII);
    return dir;
  }
}
